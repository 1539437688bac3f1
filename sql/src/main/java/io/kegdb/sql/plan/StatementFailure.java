package io.kegdb.sql.plan;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;

/** Carries a {@link SqlError} out of code Calcite calls (which cannot throw checked exceptions). */
public final class StatementFailure extends RuntimeException {
    final SqlError error;

    public StatementFailure(SqlError error) {
        super(error.getMessage(), error, false, false);
        this.error = error;
    }

    /**
     * {@link Deadline#check()} for per-row loops, from the statement's own thread: reads the clock only
     * every few calls; fails with a {@link StatementFailure} so it can leave code Calcite generated.
     */
    public static void checkRow(Deadline deadline) {
        if (deadline.reachedAtRow()) {
            try {
                deadline.check();
            } catch (SqlError e) {
                throw new StatementFailure(e);
            }
        }
    }
}
