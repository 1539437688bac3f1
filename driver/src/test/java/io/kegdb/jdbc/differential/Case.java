package io.kegdb.jdbc.differential;

import java.util.List;

/**
 * One generated case: a statement, or a few run in one transaction, of one {@link Form}. A query's rows are
 * compared; a write's update count (where all three count alike) and the rows of the tables it writes, read
 * after its end.
 *
 * @param writes the tables the case may change (their rows are compared after it); empty for a query
 * @param end how a case that writes ends
 */
record Case(Form form, List<Step> steps, End end, List<String> writes) {

    /** How a writing case ends: KegDB autocommits its one statement, or the transaction commits or rolls back. */
    enum End { AUTOCOMMIT, COMMIT, ROLLBACK }

    /**
     * A statement as each database spells it.
     *
     * @param ordered the query's ORDER BY orders every row, so rows compare in order
     * @param counted a write whose update count all three report alike (not an upsert's)
     */
    record Step(String kegdb, String h2, String sqlite, boolean query, boolean ordered, boolean counted) {

        static Step query(String sql, boolean ordered) {
            return new Step(sql, Dialect.H2.spell(sql), Dialect.SQLITE.spell(sql), true, ordered, false);
        }

        static Step write(String sql) {
            return new Step(sql, Dialect.H2.spell(sql), Dialect.SQLITE.spell(sql), false, false, true);
        }

        String sql(Dialect d) {
            return switch (d) {
                case KEGDB -> kegdb;
                case H2 -> h2;
                case SQLITE -> sqlite;
            };
        }
    }

    static Case query(Form form, String sql, boolean ordered) {
        return new Case(form, List.of(Step.query(sql, ordered)), End.AUTOCOMMIT, List.of());
    }

    static Case write(Form form, Step step, String table) {
        return new Case(form, List.of(step), End.AUTOCOMMIT, List.of(table));
    }

    /** SQLite judges this case too (it does not where its types cannot be trusted: see the generator). */
    boolean sqliteVotes() {
        return steps.stream().allMatch(s -> s.sqlite() != null);
    }

    boolean isWrite() {
        return !writes.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (end != End.AUTOCOMMIT) {
            sb.append("-- autocommit off\n");
        }
        for (Step s : steps) {
            sb.append(s.kegdb).append(";\n");
            if (!s.h2.equals(s.kegdb)) {
                sb.append("  -- H2: ").append(s.h2).append('\n');
            }
            if (s.sqlite == null) {
                sb.append("  -- judged by H2 alone\n");
            } else if (!s.sqlite.equals(s.kegdb)) {
                sb.append("  -- SQLite: ").append(s.sqlite).append('\n');
            }
        }
        if (end != End.AUTOCOMMIT) {
            sb.append(end).append(";\n");
        }
        return sb.toString().stripTrailing();
    }
}
