package io.kegdb.tests.crash;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The exact expected content of the two stores {@link MixedWorkloadChild} writes, built from its announcements.
 * An acknowledged operation's effect is certain; the one operation in flight at a kill may have happened
 * wholly or not at all, and whichever the reopened store shows becomes the expectation for the next round.
 */
final class CrashOracle {

    /** One announced operation: what it sets in each store (a null value deletes). */
    record Op(String line, String kind, boolean durable, Map<String, String> engine, Map<String, String> sql) {
    }

    private final Map<String, String> engine = new HashMap<>();
    private final Map<String, String> sql = new HashMap<>();

    /** Parses an announcement line (see {@link MixedWorkloadChild}). */
    static Op parse(String line) {
        String[] p = line.split(" ");
        long seq = Long.parseLong(p[0]);
        Map<String, String> engine = new LinkedHashMap<>();
        Map<String, String> sql = new LinkedHashMap<>();
        boolean durable = true;
        switch (p[1]) {
            case "PUT" -> {
                durable = p[2].equals("SYNC");
                engine.put(p[3], MixedWorkloadChild.value(p[3], seq, Integer.parseInt(p[4])));
            }
            case "DEL" -> engine.put(p[2], null);
            case "BATCH" -> {
                durable = p[2].equals("SYNC");
                members(engine, "b/", seq, Integer.parseInt(p[3]), Integer.parseInt(p[4]));
                deletions(engine, p[5]);
            }
            case "TXN" -> {
                durable = !p[2].equals("ROLLBACK");
                if (durable) {
                    members(sql, "t/", seq, Integer.parseInt(p[3]), Integer.parseInt(p[4]));
                    deletions(sql, p[5]);
                }
            }
            case "MERGE", "BACKUP" -> durable = false;
            default -> throw new AssertionError("unexpected line from the child: " + line);
        }
        String kind = p[1].equals("TXN") ? "TXN " + p[2] : p[1];
        return new Op(line, kind, durable, engine, sql);
    }

    private static void members(Map<String, String> into, String prefix, long seq, int n, int len) {
        for (int j = 0; j < n; j++) {
            String key = prefix + seq + "/" + j;
            into.put(key, MixedWorkloadChild.value(key, seq, len));
        }
    }

    private static void deletions(Map<String, String> into, String list) {
        if (!list.equals("-")) {
            Arrays.stream(list.split(",")).forEach(k -> into.put(k, null));
        }
    }

    /** Records an acknowledged operation. */
    void apply(Op op) {
        applyTo(engine, op.engine());
        applyTo(sql, op.sql());
    }

    private static void applyTo(Map<String, String> state, Map<String, String> change) {
        change.forEach((k, v) -> {
            if (v == null) {
                state.remove(k);
            } else {
                state.put(k, v);
            }
        });
    }

    /** The expected engine store as of now (what a backup started now must hold). */
    Map<String, String> engineSnapshot() {
        return Map.copyOf(engine);
    }

    /**
     * Checks the reopened engine store; {@code inFlight} (may be null) is the unacknowledged operation.
     * Returns whether that operation turned out to have taken effect.
     */
    boolean checkEngine(Map<String, String> observed, Op inFlight) {
        return reconcile("store", engine, observed, inFlight == null ? Map.of() : inFlight.engine(), inFlight);
    }

    /** Checks the reopened SQL store, like {@link #checkEngine}. */
    boolean checkSql(Map<String, String> observed, Op inFlight) {
        return reconcile("SQL table KV", sql, observed, inFlight == null ? Map.of() : inFlight.sql(), inFlight);
    }

    /** Checks a backup against the expected image taken when it started. */
    static void checkImage(String what, Map<String, String> expected, Map<String, String> observed) {
        reconcile(what, new HashMap<>(expected), observed, Map.of(), null);
    }

    /**
     * Every key outside the in-flight change must be exactly as expected (a difference is a lost
     * acknowledged write, an undone delete, or a row that was never committed); the in-flight change must be
     * all there or not at all, and the expectation adopts what is there.
     */
    private static boolean reconcile(String what, Map<String, String> expected, Map<String, String> observed,
                                  Map<String, String> change, Op inFlight) {
        TreeSet<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(observed.keySet());
        keys.removeAll(change.keySet());
        for (String k : keys) {
            String want = expected.get(k);
            String got = observed.get(k);
            if (!Objects.equals(want, got)) {
                fail(what + ": key " + k + " should be " + brief(want) + " but is " + brief(got)
                        + (want == null ? " (never acknowledged, deleted, or rolled back)" : " (acknowledged write lost)")
                        + (inFlight == null ? "" : "; in flight at the kill: " + inFlight.line()));
            }
        }
        if (change.isEmpty()) {
            return false;
        }
        boolean before = change.keySet().stream().allMatch(k -> Objects.equals(expected.get(k), observed.get(k)));
        boolean after = change.entrySet().stream().allMatch(e -> Objects.equals(e.getValue(), observed.get(e.getKey())));
        if (!before && !after) {
            List<String> seen = change.keySet().stream().map(k -> k + "=" + brief(observed.get(k))).toList();
            fail(what + ": operation in flight at the kill is partly visible: " + inFlight.line() + " -> " + seen);
        }
        if (after) {
            applyTo(expected, change);
        }
        return after && !before;
    }

    private static String brief(String v) {
        return v == null ? "absent" : v.length() <= 40 ? "'" + v + "'"
                : "'" + v.substring(0, 40) + "...' (" + v.length() + " chars)";
    }
}
