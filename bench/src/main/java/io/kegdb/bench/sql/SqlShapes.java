package io.kegdb.bench.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static io.kegdb.bench.sql.ShapeData.key;

/**
 * The measured shapes over {@link ShapeData}'s tables, in table order: the point select as the reference, the
 * five shapes of the SQL performance issue, then range joins, GROUP BY on the value, paging, prefix scans both
 * ways and MIN/MAX next to a key; then the per-row shapes: whole-table scans with a condition on the value,
 * orderings on the value with a limit, key-ordered limits under a value condition, a join over a few thousand
 * keys and aggregates over the value.
 */
public final class SqlShapes {
    /** Keys a COUNT(*) range covers: wide enough that counting, not planning, is most of the work. */
    static final int COUNT_RANGE = 10_000;
    /** Keys the range join and the GROUP BY range cover. */
    static final int JOIN_RANGE = 100;
    static final int GROUP_RANGE = 1_000;
    /** Largest OFFSET the paging shape draws. */
    static final int MAX_OFFSET = 1_000;
    /** Keys the wide range join and the aggregates over the value cover. */
    static final int WIDE_JOIN_RANGE = 3_000;

    private SqlShapes() {
    }

    /** The key/value fast path: the reference every other shape is compared with. */
    public static final SqlShape POINT = new SqlShape("point select (reference)", "SELECT v FROM kv WHERE k = ?",
            (r, rows) -> new Object[] {anyKey(r, rows)});
    /** A shape every database must plan in full: the cold-start measure's first planned query. */
    public static final SqlShape GROUP_BY_VALUE = new SqlShape("GROUP BY value over 1k keys",
            "SELECT v, COUNT(*) FROM kv WHERE k BETWEEN ? AND ? GROUP BY v",
            (r, rows) -> range(r, rows, GROUP_RANGE));

    public static final List<SqlShape> ALL = List.of(
            POINT,
            new SqlShape("range, LIMIT 10", "SELECT k, v FROM kv WHERE k >= ? ORDER BY k LIMIT 10",
                    (r, rows) -> new Object[] {anyKey(r, rows)}),
            new SqlShape("COUNT(*) over 10k keys", "SELECT COUNT(*) FROM kv WHERE k BETWEEN ? AND ?",
                    (r, rows) -> range(r, rows, Math.min(COUNT_RANGE, rows / 2))),
            new SqlShape("IN list of 3 keys", "SELECT k, v FROM kv WHERE k IN (?, ?, ?)",
                    (r, rows) -> new Object[] {anyKey(r, rows), anyKey(r, rows), anyKey(r, rows)}),
            new SqlShape("point join", "SELECT kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k = ?",
                    // a key of other (every tenth key), so the join finds its row
                    (r, rows) -> new Object[] {key(r.nextInt(rows / 10) * 10)}),
            new SqlShape("range + value filter, LIMIT 5", "SELECT k FROM kv WHERE k >= ? AND v = ? ORDER BY k LIMIT 5",
                    (r, rows) -> new Object[] {anyKey(r, rows), ShapeData.value(r.nextInt(ShapeData.DISTINCT_VALUES))}),
            new SqlShape("range join over 100 keys",
                    "SELECT kv.k, kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k BETWEEN ? AND ?",
                    (r, rows) -> range(r, rows, JOIN_RANGE)),
            GROUP_BY_VALUE,
            new SqlShape("page: LIMIT 10 OFFSET n (n < 1000)", "SELECT k, v FROM kv ORDER BY k LIMIT 10 OFFSET ?",
                    (r, rows) -> new Object[] {r.nextInt(MAX_OFFSET)}),
            new SqlShape("prefix scan, LIMIT 20", "SELECT k, v FROM kv WHERE k LIKE ? ORDER BY k LIMIT 20",
                    (r, rows) -> new Object[] {prefix(r, rows)}),
            new SqlShape("prefix scan DESC, LIMIT 20", "SELECT k, v FROM kv WHERE k LIKE ? ORDER BY k DESC LIMIT 20",
                    (r, rows) -> new Object[] {prefix(r, rows)}),
            new SqlShape("MAX(k) below a key", "SELECT MAX(k) FROM kv WHERE k < ?",
                    (r, rows) -> new Object[] {anyKey(r, rows)}),
            new SqlShape("MIN(k) above a key", "SELECT MIN(k) FROM kv WHERE k > ?",
                    (r, rows) -> new Object[] {anyKey(r, rows)}),
            // Whole-table scans: the cost of a scanned row, with the condition on the value.
            new SqlShape("whole table, v = x", "SELECT k FROM kv WHERE v = ?",
                    (r, rows) -> new Object[] {anyValue(r)}),
            new SqlShape("whole table, COUNT(*) of v > x", "SELECT COUNT(*) FROM kv WHERE v > ?",
                    (r, rows) -> new Object[] {anyValue(r)}),
            new SqlShape("whole table, GROUP BY value", "SELECT v, COUNT(*) FROM kv WHERE v >= ? GROUP BY v",
                    (r, rows) -> new Object[] {anyValue(r)}),
            // The key breaks ties, so every database has one right answer.
            new SqlShape("top 20 by value", "SELECT k, v FROM kv WHERE v >= ? ORDER BY v, k LIMIT 20",
                    (r, rows) -> new Object[] {anyValue(r)}),
            new SqlShape("top 20 by value DESC", "SELECT k, v FROM kv WHERE v <= ? ORDER BY v DESC, k LIMIT 20",
                    (r, rows) -> new Object[] {anyValue(r)}),
            // Key order with a limit under a condition on the value that the scan cannot look up.
            new SqlShape("ORDER BY k LIMIT 20, v LIKE 'p%'",
                    "SELECT k, v FROM kv WHERE k >= ? AND v LIKE ? ORDER BY k LIMIT 20",
                    (r, rows) -> new Object[] {anyKey(r, rows), anyValue(r).substring(0, 2) + "%"}),
            new SqlShape("ORDER BY k DESC LIMIT 20, v > x",
                    "SELECT k, v FROM kv WHERE k <= ? AND v > ? ORDER BY k DESC LIMIT 20",
                    (r, rows) -> new Object[] {anyKey(r, rows), anyValue(r)}),
            new SqlShape("join ORDER BY k LIMIT 20",
                    "SELECT kv.k, kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k >= ? ORDER BY kv.k"
                            + " LIMIT 20",
                    (r, rows) -> new Object[] {anyKey(r, rows)}),
            new SqlShape("range join over 3k keys",
                    "SELECT kv.k, kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k BETWEEN ? AND ?",
                    (r, rows) -> range(r, rows, WIDE_JOIN_RANGE)),
            new SqlShape("MAX(v) over 3k keys", "SELECT MAX(v) FROM kv WHERE k BETWEEN ? AND ?",
                    (r, rows) -> range(r, rows, WIDE_JOIN_RANGE)),
            new SqlShape("SUM(LENGTH(v)) over 3k keys", "SELECT SUM(LENGTH(v)) FROM kv WHERE k BETWEEN ? AND ?",
                    (r, rows) -> range(r, rows, WIDE_JOIN_RANGE)));

    /**
     * The shapes whose name contains one of the comma-separated words (case-insensitive), in table order;
     * refuses a word that names none, so a typo does not run an empty benchmark.
     */
    public static List<SqlShape> matching(String words) {
        List<String> wanted = new ArrayList<>();
        for (String w : words.split(",")) {
            if (!w.isBlank()) {
                wanted.add(w.trim().toLowerCase(Locale.ROOT));
            }
        }
        for (String w : wanted) {
            if (ALL.stream().noneMatch(s -> s.label().toLowerCase(Locale.ROOT).contains(w))) {
                throw new IllegalArgumentException("no shape is named like '" + w + "'");
            }
        }
        return ALL.stream()
                .filter(s -> wanted.stream().anyMatch(w -> s.label().toLowerCase(Locale.ROOT).contains(w)))
                .toList();
    }

    private static String anyKey(Random r, int rows) {
        return key(r.nextInt(rows));
    }

    private static String anyValue(Random r) {
        return ShapeData.value(r.nextInt(ShapeData.DISTINCT_VALUES));
    }

    /** {@code width} keys from a random one; on a table too small for that (a smoke test's), half the table. */
    private static Object[] range(Random r, int rows, int width) {
        int w = Math.min(width, Math.max(1, rows / 2));
        int from = r.nextInt(rows - w + 1);
        return new Object[] {key(from), key(from + w - 1)};
    }

    /** {@code k0123%}: the 100 keys that share a key's first five characters. */
    private static String prefix(Random r, int rows) {
        return anyKey(r, rows).substring(0, 5) + "%";
    }
}
