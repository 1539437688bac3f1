package io.kegdb.jdbc.differential;

import java.sql.SQLException;

/**
 * Judges one {@link Case} on a {@link DatabaseSet}. H2 and SQLite are the oracles: a case counts only where both
 * answer it and agree (same rows, same update counts, same rows after), and then KegDB must give that answer too.
 * A KegDB error there is a failure; an internal error (HY000, or an exception that is no SQLException) is one
 * wherever it happens, even where the oracles disagree. Where both oracles refuse a write, KegDB must refuse it
 * too; where H2 alone judges and refuses with 22003 (an overflow), KegDB must refuse as well.
 */
final class Referee {

    enum Kind {
        /** The oracles agreed and KegDB gave their answer (or refused with them). */
        SAME,
        /** The oracles agreed and KegDB did not. */
        MISMATCH,
        /** The oracles disagreed (a dialect difference): not counted. */
        ORACLES_DIFFER,
        /** Both oracles refused a query: not counted (KegDB may accept more). */
        REFUSED
    }

    record Verdict(Kind kind, Outcome kegdb, Outcome h2, Outcome sqlite) {
        /** What went wrong, with the details that vary from case to case cut out: one line per cause. */
        String cause() {
            if (kegdb.error() == null) {
                return kegdb.results().isEmpty() && h2.isError() ? "answered where the oracles refused" : "wrong answer";
            }
            String first = kegdb.error().lines().findFirst().orElse("");
            first = first.replaceAll("'[^']*'", "'…'").replaceAll("\\b[TS]\\d+\\b", "T")
                    .replaceAll("\\$\\w+", "\\$").replaceAll("\\d+", "N");
            return first.length() > 120 ? first.substring(0, 120) : first;
        }
    }

    private Referee() {
    }

    private static boolean timedOut(Outcome o) {
        return o.error() != null && o.error().startsWith("HYT00");
    }

    static Verdict judge(DatabaseSet set, Case c) throws SQLException {
        Outcome h2 = set.run(Dialect.H2, c, false);
        Outcome sqlite = c.sqliteVotes() ? set.run(Dialect.SQLITE, c, false) : null;
        boolean agree = !h2.isError() && (sqlite == null || h2.agrees(sqlite));
        set.settle(Dialect.H2, c, agree);
        if (sqlite != null) {
            set.settle(Dialect.SQLITE, c, agree);
        }
        if (agree) {
            Outcome kegdb = set.run(Dialect.KEGDB, c, false);
            if (timedOut(kegdb) && !set.stuck()) {
                // once more: on a loaded machine a first plan can take longer than the query timeout
                kegdb = set.run(Dialect.KEGDB, c, false);
            }
            return new Verdict(!kegdb.isError() && kegdb.agrees(h2) ? Kind.SAME : Kind.MISMATCH, kegdb, h2, sqlite);
        }
        Outcome kegdb = set.run(Dialect.KEGDB, c, true);
        boolean refused = h2.isError() && (sqlite != null ? sqlite.isError() : h2.error().startsWith("22003"));
        if (kegdb.isInternalError()) {
            return new Verdict(Kind.MISMATCH, kegdb, h2, sqlite);
        }
        if (refused && (c.isWrite() || sqlite == null)) {
            return new Verdict(kegdb.isError() ? Kind.SAME : Kind.MISMATCH, kegdb, h2, sqlite);
        }
        return new Verdict(refused ? Kind.REFUSED : Kind.ORACLES_DIFFER, kegdb, h2, sqlite);
    }
}
