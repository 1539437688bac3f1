package io.kegdb.sql;

import io.kegdb.sql.plan.SqlErrors;

/**
 * A query's result whose first row was fetched when the statement ran, so that what the first fetch finds
 * (on a shared catalog: that another process's DDL changed the catalog under the plan) fails the execution,
 * where the statement can still be planned again and run again unseen, rather than the application's first
 * {@link #next}.
 */
final class PrimedResult extends ForwardingResult {

    private boolean first = true;
    private final boolean hasFirst;

    private PrimedResult(SqlResult rows, boolean hasFirst) {
        super(rows);
        this.hasFirst = hasFirst;
    }

    /** {@code rows} with its first row fetched; closes it if that fails, the failure as a {@link SqlError}. */
    static SqlResult prime(SqlResult rows) throws SqlError {
        try {
            return new PrimedResult(rows, rows.next());
        } catch (SqlError e) {
            rows.close();
            throw e;
        } catch (RuntimeException e) {
            rows.close();
            throw SqlErrors.translate(e);
        }
    }

    @Override
    public boolean next() throws SqlError {
        if (first) {
            first = false;
            return hasFirst;
        }
        return rows.next();
    }
}
