package io.kegdb.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The writes a workload made, in the order they were acknowledged (one writing thread), and how many of
 * them were acknowledged as durable: a SYNC write that returned, or every write before a {@code flush()} or
 * {@code close()} that returned. A durable acknowledgement covers every earlier write too (the fsync of the
 * active segment covers all of it, and older segments were synced when sealed), so the durable writes are
 * always a prefix.
 *
 * <p>What a power-cut image may hold: exactly the state after some prefix of the writes that is at least
 * the durable prefix and at most the writes issued. That one check is every promise at once: durable writes
 * kept with their exact values, no batch in part, NO_SYNC writes kept only as a prefix in acknowledgement
 * order, deleted keys staying deleted.
 */
final class AcknowledgedHistory {

    /** One write: key to value, a null value a delete; one entry for a put, several for a batch. */
    private final List<Map<String, String>> writes = new ArrayList<>();
    private int durable;

    /** Records a write about to be made; returns its index. */
    synchronized int issue(Map<String, String> write) {
        writes.add(write);
        return writes.size() - 1;
    }

    /** Writes issued so far. */
    synchronized int issued() {
        return writes.size();
    }

    /** Writes acknowledged as durable so far (a prefix). */
    synchronized int durable() {
        return durable;
    }

    /** The first {@code count} writes were acknowledged as durable. */
    synchronized void durableUpTo(int count) {
        durable = Math.max(durable, count);
    }

    /** The state after the first {@code count} writes. */
    synchronized Map<String, String> stateAfter(int count) {
        Map<String, String> state = new HashMap<>();
        for (int i = 0; i < count; i++) {
            apply(state, writes.get(i));
        }
        return state;
    }

    /**
     * The prefix of the writes, between {@code from} and {@code to} writes long, after which the store holds
     * exactly {@code seen}; -1 if there is none.
     */
    synchronized int matchingPrefix(Map<String, String> seen, int from, int to) {
        Map<String, String> state = stateAfter(from);
        for (int p = from; ; p++) {
            if (state.equals(seen)) {
                return p;
            }
            if (p == to) {
                return -1;
            }
            apply(state, writes.get(p));
        }
    }

    /** The keys any write touched. */
    synchronized List<String> keys() {
        Map<String, Boolean> all = new java.util.LinkedHashMap<>();
        for (Map<String, String> w : writes) {
            w.keySet().forEach(k -> all.put(k, true));
        }
        return new ArrayList<>(all.keySet());
    }

    private static void apply(Map<String, String> state, Map<String, String> write) {
        write.forEach((k, v) -> {
            if (v == null) {
                state.remove(k);
            } else {
                state.put(k, Objects.requireNonNull(v));
            }
        });
    }
}
