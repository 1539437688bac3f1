package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of magnitude (decimal digits) of each table's row count when a plan was chosen. Once a table has
 * grown or shrunk past a power of ten the plan is outdated: its join order or lookups may no longer be the
 * cheaper choice. The counts are taken again at most once a second per plan, so an outdated plan may still
 * run (correctly, perhaps slower) for up to a second, and a table that hovers at a power of ten costs at most
 * one planning a second.
 */
final class TableSizes {

    private static final long RECHECK_NANOS = 1_000_000_000L;

    private final List<KvTable> tables;
    private final int[] magnitudes;
    private volatile long nextCheck = System.nanoTime() + RECHECK_NANOS;
    private volatile boolean outdated;

    private TableSizes(List<KvTable> tables) {
        this.tables = tables;
        this.magnitudes = new int[tables.size()];
        for (int i = 0; i < magnitudes.length; i++) {
            magnitudes[i] = magnitude(tables.get(i).rowCount());
        }
    }

    /** The sizes of the user tables {@code rel} reads or writes, as they are now. */
    static TableSizes of(RelNode rel) {
        List<KvTable> tables = new ArrayList<>();
        for (RelOptTable t : RelOptUtil.findAllTables(rel)) {
            KvTable kv = t.unwrap(KvTable.class);
            if (kv != null && !tables.contains(kv)) {
                tables.add(kv);
            }
        }
        return new TableSizes(List.copyOf(tables));
    }

    /** Whether a table's row count has left the order of magnitude it had; once true, it stays true. */
    boolean outdated() {
        if (outdated || tables.isEmpty()) {
            return outdated;
        }
        long now = System.nanoTime();
        if (now - nextCheck < 0) {
            return false;
        }
        nextCheck = now + RECHECK_NANOS;
        for (int i = 0; i < magnitudes.length; i++) {
            if (magnitude(tables.get(i).rowCount()) != magnitudes[i]) {
                outdated = true;
                return true;
            }
        }
        return false;
    }

    static int magnitude(double rows) {
        return (int) Math.floor(Math.log10(Math.max(rows, 1)));
    }
}
