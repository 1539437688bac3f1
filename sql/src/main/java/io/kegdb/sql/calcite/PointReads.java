package io.kegdb.sql.calcite;

import io.kegdb.sql.txn.ReadView;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The values of the point bounds of a scan, read ahead run by run: a run of consecutive points is one
 * multi-get through the view (a lone point one get), so that a lookup of many keys costs one call per run, not
 * one per key. Shared by the scan sources that walk resolved bounds ({@link KvScanSource}, {@link StoredPairs}).
 */
final class PointReads {

    /** Points read in one multi-get at most. */
    static final int BATCH = 256;

    private final ReadView view;
    private final List<KeyPredicate.Bounds> bounds;
    /** Values read ahead for the points {@code bounds[fetchedFrom, fetchedFrom + fetched.size())}. */
    private List<byte[]> fetched = List.of();
    private int fetchedFrom;

    PointReads(ReadView view, List<KeyPredicate.Bounds> bounds) {
        this.view = view;
        this.bounds = bounds;
    }

    /**
     * The value of the point {@code bounds[at]}, or null when absent; when not read ahead yet, reads the run of
     * points it starts, at most {@code most} (and {@link #BATCH}) of them.
     */
    byte[] value(int at, long most) {
        int ahead = at - fetchedFrom;
        if (ahead >= 0 && ahead < fetched.size()) {
            return fetched.get(ahead);
        }
        long cap = Math.max(1, Math.min(BATCH, most));
        int end = at;
        while (end < bounds.size() && bounds.get(end).point() && end - at < cap) {
            end++;
        }
        fetchedFrom = at;
        if (end - at == 1) {
            fetched = Collections.singletonList(view.get(bounds.get(at).from()));
        } else {
            List<byte[]> points = new ArrayList<>(end - at);
            for (int i = at; i < end; i++) {
                points.add(bounds.get(i).from());
            }
            fetched = view.getAll(points);
        }
        return fetched.get(0);
    }

    /** Drops what was read ahead. */
    void clear() {
        fetched = List.of();
    }
}
