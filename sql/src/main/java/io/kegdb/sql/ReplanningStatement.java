package io.kegdb.sql;

import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.stats.SlowStatementLog;
import io.kegdb.sql.stats.StatementEntry;
import io.kegdb.sql.stats.StatementRecorder;

import java.util.List;

/**
 * {@link SqlStatement}: a plan, made again if DDL changed the catalog since it was prepared or its tables'
 * sizes outdated it. On a shared catalog the statement learns of another process's DDL from its own reads and
 * writes (see {@link CatalogCheckedView} and the write guard in {@link KegSession}): it then re-reads the
 * catalog, is planned again and runs again, where nothing of its first run is kept.
 */
final class ReplanningStatement implements SqlStatement {

    /** Runs of one execution on a catalog that kept changing under it before it fails with 40001. */
    static final int CATALOG_ATTEMPTS = 20;

    private final KegSession session;
    private final String sql;
    private Plan plan;
    private boolean closed;
    /** Records the statement's runs in its text's statistics (SYS.STATEMENTS and the statement meters). */
    private final StatementRecorder recorder;

    ReplanningStatement(KegSession session, String sql, Plan plan) {
        this.session = session;
        this.sql = sql;
        this.plan = plan;
        this.recorder = session.database().statementStatistics().recorder(sql);
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public boolean isQuery() {
        return plan.isQuery();
    }

    @Override
    public int parameterCount() {
        return plan.parameters().size();
    }

    @Override
    public List<ColumnInfo> parameters() {
        return plan.parameters();
    }

    @Override
    public List<ColumnInfo> columns() {
        return plan.columns();
    }

    @Override
    public SqlResult execute(List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (closed) {
            throw new SqlError(SqlState.FUNCTION_SEQUENCE_ERROR, "the statement is closed");
        }
        // Timed for the slow log, each run; for the statistics, the runs the recorder samples (the clock is a
        // statement's dearest meter). A statement counted by neither reads no clock.
        boolean counted = session.statementStatistics();
        boolean timed = session.slowStatementNanos() > 0 || (counted && recorder.timesNextRun());
        long started = timed ? System.nanoTime() : 0L;
        SqlResult result;
        boolean ran = false;
        try {
            for (int attempt = 1; ; attempt++) {
                long version = plan.catalogVersion();
                if ((version >= 0 && version != session.database().catalog().snapshot().version()) || plan.outdated()) {
                    plan = session.replan(sql, deadline);
                }
                ran = true;
                try {
                    result = session.run(plan, params == null ? List.of() : params, maxRows, deadline);
                    if (result.isQuery() && session.database().catalog().shared()) {
                        result = PrimedResult.prime(result); // its first read checks the catalog while it can run again
                    }
                    break;
                } catch (SqlError e) {
                    boolean changed = session.catalogChangedLastRun();
                    boolean again = changed ? session.restartAfterCatalogChange() : session.mayKnowMoreAfterRefresh(e);
                    // A changed catalog is re-read even when the statement cannot run again, for the next one.
                    boolean moved = (changed || again) && session.database().catalog().refresh();
                    // A name this process does not know is worth another try only if the catalog moved on.
                    if (!again || attempt >= CATALOG_ATTEMPTS || (!changed && !moved)) {
                        throw e;
                    }
                }
            }
        } catch (SqlError e) {
            if (counted || timed) {
                finished(started, timed, 0, ran ? session.statementConflicts() : 0, counted);
            }
            throw e;
        } catch (RuntimeException e) {
            if (counted || timed) {
                finished(started, timed, 0, ran ? session.statementConflicts() : 0, counted);
            }
            throw SqlErrors.translate(e);
        }
        if (!counted && !timed) {
            return result;
        }
        if (result.isQuery()) {
            return new MeteredResult(result, this, started, timed, session.statementConflicts(), counted);
        }
        finished(started, timed, result.updateCount(), session.statementConflicts(), counted);
        return result;
    }

    /**
     * Accounts one run (a query's once its rows were read or it was closed), which started at {@code started}
     * if {@code timed}: when {@code counted}, the statement's statistics (and so the database's statement
     * meters); when slow, the slow-statement log.
     */
    void finished(long started, boolean timed, long rows, int conflicts, boolean counted) {
        long elapsed = timed ? System.nanoTime() - started : -1;
        StatementEntry entry = counted ? recorder.record(elapsed, rows, conflicts) : null;
        long slow = session.slowStatementNanos();
        if (timed && slow > 0 && elapsed >= slow) {
            SlowStatementLog.log(session.database().sqlMeters(), entry != null ? entry.text() : recorder.text(),
                    elapsed, rows, plan.explain());
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            recorder.close();
        }
    }
}
