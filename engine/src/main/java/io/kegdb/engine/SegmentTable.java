package io.kegdb.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Every live segment by id, readable without locks (a copy-on-write array), and the bound on how many
 * sealed segments stay mapped at once. Changes (add, remove) are rare and synchronized.
 */
final class SegmentTable {

    /** Replay order: order, then plain before merged, then id. */
    static final Comparator<Segment> REPLAY_ORDER = Comparator
            .comparingLong((Segment s) -> s.header().order())
            .thenComparing(s -> s.header().merged())
            .thenComparingInt(Segment::id);

    private final int maxMapped;
    /** Segments indexed by {@code id - base}; replaced whole so readers see base and array together. */
    private record Index(int base, Segment[] byId) {
    }

    private volatile Index index = new Index(0, new Segment[0]);

    SegmentTable(int maxMapped) {
        this.maxMapped = maxMapped;
    }

    /** The segment with {@code id}, or null if it is gone (merged away). */
    Segment get(int id) {
        Index ix = index;
        int i = id - ix.base();
        return i >= 0 && i < ix.byId().length ? ix.byId()[i] : null;
    }

    synchronized void add(Segment s) {
        List<Segment> all = all();
        all.add(s);
        rebuild(all);
        boundMappings(s);
    }

    synchronized void remove(Segment s) {
        List<Segment> all = all();
        all.removeIf(x -> x.id() == s.id());
        rebuild(all);
    }

    /** Every segment, ascending id. */
    synchronized List<Segment> all() {
        List<Segment> out = new ArrayList<>();
        for (Segment s : index.byId()) {
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** Every segment in replay order (oldest data first). */
    List<Segment> inReplayOrder() {
        List<Segment> out = all();
        out.sort(REPLAY_ORDER);
        return out;
    }

    private void rebuild(List<Segment> all) {
        if (all.isEmpty()) {
            index = new Index(0, new Segment[0]);
            return;
        }
        int min = all.stream().mapToInt(Segment::id).min().orElseThrow();
        int max = all.stream().mapToInt(Segment::id).max().orElseThrow();
        Segment[] arr = new Segment[max - min + 1];
        for (Segment s : all) {
            arr[s.id() - min] = s;
        }
        index = new Index(min, arr);
    }

    /** Drops the mapping of not recently used segments when more than the bound are mapped (clock sweep). */
    private void boundMappings(Segment keep) {
        Segment[] arr = index.byId();
        int mapped = 0;
        for (Segment s : arr) {
            if (s != null && s.isMapped()) {
                mapped++;
            }
        }
        for (int pass = 0; pass < 2 && mapped > maxMapped; pass++) {
            for (Segment s : arr) {
                if (mapped <= maxMapped) {
                    break;
                }
                if (s == null || s == keep || !s.isMapped() || s.isBeingWritten()) {
                    continue;
                }
                if (s.recentlyUsed && pass == 0) {
                    s.recentlyUsed = false;
                } else {
                    s.unmap();
                    mapped--;
                }
            }
        }
    }

    /** Called periodically to keep the mapping bound when reads map segments lazily. */
    synchronized void enforceBound() {
        boundMappings(null);
    }

    @Override
    public String toString() {
        return Arrays.toString(index.byId());
    }
}
