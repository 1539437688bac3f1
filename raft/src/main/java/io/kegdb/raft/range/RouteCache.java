package io.kegdb.raft.range;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A client's cached range descriptors (docs/SCALE.md, "Routing"), by end key: the descriptor holding key k is
 * the first one whose end is above k, so a lookup is one step in a sorted map, as it is one bounded scan in the
 * meta range ({@link MetaKeys#lookupFrom}). Filled from the meta range and from the descriptors stale-route
 * answers carry; gaps (keys no cached descriptor holds) are looked up by the caller.
 *
 * <p>Newer wins: for any key, each change of the range holding it (a split) raises the generation, so of two
 * descriptors that share a key the one with the higher generation is the newer (the same range at the same
 * generation: the higher replica version). {@link #learn} drops every cached descriptor a newer one overlaps
 * and ignores one that an overlapping cached descriptor is newer than; {@link #forget} drops exactly one.
 * Thread-safe.
 */
public final class RouteCache {

    /** By {@link MetaKeys#descriptorKey} of the end: the same order as the ends, the last range last. */
    private final TreeMap<byte[], RangeDescriptor> byEnd = new TreeMap<>(Arrays::compareUnsigned);

    /** A cache holding {@code initial} (a client's route before any lookup: the initial descriptor). */
    public RouteCache(RangeDescriptor initial) {
        learn(initial);
    }

    /** The cached descriptor of the range holding {@code key}, or null when no cached one does. */
    public synchronized RangeDescriptor holding(byte[] key) {
        Map.Entry<byte[], RangeDescriptor> e = byEnd.ceilingEntry(MetaKeys.lookupFrom(key));
        return e != null && e.getValue().contains(key) ? e.getValue() : null;
    }

    /**
     * The cached descriptor of the range holding the keys just below {@code to} (null: the last range), where a
     * descending scan ending at {@code to} begins; null when no cached one does, or {@code to} is the empty key.
     */
    public synchronized RangeDescriptor holdingBelow(byte[] to) {
        if (to != null && to.length == 0) {
            return null;
        }
        Map.Entry<byte[], RangeDescriptor> e = byEnd.ceilingEntry(MetaKeys.descriptorKey(to));
        if (e == null) {
            return null;
        }
        RangeDescriptor d = e.getValue();
        boolean startBelow = to == null || Arrays.compareUnsigned(d.start(), to) < 0;
        boolean endAbove = to == null ? d.end() == null : d.end() == null || Arrays.compareUnsigned(d.end(), to) >= 0;
        return startBelow && endAbove ? d : null;
    }

    /**
     * Caches {@code d} unless a cached descriptor overlapping it is newer (or it is cached already), dropping
     * every cached one it is newer than.
     *
     * @return whether {@code d} is cached now as the newest of its span
     */
    public synchronized boolean learn(RangeDescriptor d) {
        List<byte[]> older = new ArrayList<>();
        for (Map.Entry<byte[], RangeDescriptor> e : overlapping(d)) {
            RangeDescriptor cached = e.getValue();
            if (cached.equals(d)) {
                return true;
            }
            if (!newer(d, cached)) {
                return false;
            }
            older.add(e.getKey());
        }
        older.forEach(byEnd::remove);
        byEnd.put(d.metaKey(), d);
        return true;
    }

    /** Drops {@code d} if it is cached (a route found wrong); a different descriptor of its range stays. */
    public synchronized void forget(RangeDescriptor d) {
        byEnd.remove(d.metaKey(), d);
    }

    /** The cached descriptors in key order. */
    public synchronized List<RangeDescriptor> all() {
        return List.copyOf(byEnd.values());
    }

    /** Whether {@code a} replaces {@code b}, which overlaps it. */
    private static boolean newer(RangeDescriptor a, RangeDescriptor b) {
        return a.generation() > b.generation() || (a.generation() == b.generation() && a.id() == b.id()
                && a.replicaVersion() > b.replicaVersion());
    }

    /** The cached descriptors sharing a key with {@code d}. */
    private List<Map.Entry<byte[], RangeDescriptor>> overlapping(RangeDescriptor d) {
        List<Map.Entry<byte[], RangeDescriptor>> out = new ArrayList<>();
        // the first cached range ending above d's start, and each after it while it starts below d's end
        Iterator<Map.Entry<byte[], RangeDescriptor>> it = byEnd.tailMap(MetaKeys.lookupFrom(d.start()), true)
                .entrySet().iterator();
        byte[] end = d.end();
        while (it.hasNext()) {
            Map.Entry<byte[], RangeDescriptor> e = it.next();
            if (end != null && Arrays.compareUnsigned(e.getValue().start(), end) >= 0) {
                break;
            }
            out.add(e);
        }
        return out;
    }
}
