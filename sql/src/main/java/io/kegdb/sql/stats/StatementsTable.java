package io.kegdb.sql.stats;

import io.kegdb.sql.SystemTableSource;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SYS.STATEMENTS}: one row per normalized statement text with its calls, times in microseconds
 * (total, mean, max), rows returned or changed, and conflicts; most total time first.
 */
public final class StatementsTable implements SystemTableSource {

    public static final String NAME = "STATEMENTS";

    private static final List<Column> COLUMNS = List.of(
            new Column("TEXT", Kind.VARCHAR, false),
            new Column("KIND", Kind.VARCHAR, false),
            new Column("CALLS", Kind.BIGINT, false),
            new Column("TOTAL_US", Kind.BIGINT, false),
            new Column("MEAN_US", Kind.BIGINT, false),
            new Column("MAX_US", Kind.BIGINT, false),
            new Column("ROW_COUNT", Kind.BIGINT, false),
            new Column("CONFLICTS", Kind.BIGINT, false));

    private final StatementStatistics statistics;

    public StatementsTable(StatementStatistics statistics) {
        this.statistics = statistics;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (StatementEntry e : statistics.entries()) {
            long calls = e.calls();
            long total = e.totalNanos() / 1000;
            rows.add(new Object[] {e.text(), e.kind().name(), calls, total, calls == 0 ? 0L : total / calls,
                    e.maxNanos() / 1000, e.rows(), e.conflicts()});
        }
        return rows;
    }
}
