package sqlline;

import io.kegdb.jdbc.console.ConsoleShortcuts;
import io.kegdb.jdbc.console.Messages;
import io.kegdb.jdbc.console.SqlStatements;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * sqlline with the KegDB console's rules for SQL: a line holding several statements runs them one by one and
 * stops at the first that fails; an error is one line (message and SQLState, no stack trace unless verbose);
 * in a script, the first failure ends the run unless told to go on, and DML prints its update count on
 * stdout. Lives in package {@code sqlline} because {@link #dispatch}, the one method every input line passes
 * through, is package-private there.
 *
 * <p>This depends on the sqlline version pinned in the root pom ({@code sqlline.version}, 1.12.0): that
 * {@code dispatch} sees every line of a session and of a {@code -f} script, and that sqlline reports an aborted
 * script with one more {@link #error} call. SqllineContractTest fails when a new version changes either. Kept
 * minimal: everything that does not need sqlline's package lives in {@code io.kegdb.jdbc.console}.
 */
public class ConsoleSqlLine extends SqlLine {

    /** Running a script (statements from -e, a file or a pipe) rather than an interactive session. */
    private final boolean script;
    /** In a script: keep going after a failed statement. */
    private final boolean continueOnError;
    private boolean failed;
    /** sqlline's next error line is its own note that the script was aborted: it is replaced by ours. */
    private boolean abortNotePending;

    public ConsoleSqlLine(Application application, boolean script, boolean continueOnError) {
        setAppConfig(application);
        this.script = script;
        this.continueOnError = continueOnError;
    }

    /** Whether a statement or command failed so far. */
    public boolean failed() {
        return failed;
    }

    @Override
    void dispatch(String line, DispatchCallback callback) {
        if (line == null || line.trim().startsWith(COMMAND_PREFIX) || isOneLineComment(line) || isHelpRequest(line.trim())) {
            super.dispatch(line, callback);
            noteOutcome(callback);
            return;
        }
        for (String statement : SqlStatements.split(line)) {
            String command = ConsoleShortcuts.command(statement);
            if (command != null) {
                super.dispatch(command, callback);
            } else {
                execute(statement, callback);
            }
            if (noteOutcome(callback) || isExit()) {
                return; // the rest of the line is not run
            }
        }
    }

    /** Counts a failure; true when it stops the line (and, in a script that does not go on, the run). */
    private boolean noteOutcome(DispatchCallback callback) {
        if (!callback.isFailure()) {
            return false;
        }
        failed = true;
        if (script && !continueOnError) {
            setExit(true);
            abortNotePending = true;
        }
        return !script || !continueOnError;
    }

    @Override
    public boolean error(String msg) {
        if (abortNotePending) {
            abortNotePending = false; // sqlline names its "force" option and repeats the whole line
            return super.error("kegdb: the script stopped at the failing statement; --continue-on-error runs the rest");
        }
        return super.error(msg);
    }

    /** One SQL statement: its result sets as tables, or its update count. */
    private void execute(String sql, DispatchCallback callback) {
        if (!assertConnection()) {
            callback.setToFailure();
            return;
        }
        callback.setStatus(DispatchCallback.Status.RUNNING);
        long start = System.currentTimeMillis();
        try (Statement statement = createStatement()) {
            callback.trackSqlQuery(statement);
            boolean hasResults = statement.execute(sql);
            showWarnings(statement.getWarnings());
            if (hasResults) {
                do {
                    try (ResultSet rs = statement.getResultSet()) {
                        int count = print(rs, callback);
                        info(withTime(loc("rows-selected", count), start));
                    }
                } while (getMoreResults(statement));
            } else {
                String affected = loc("rows-affected", statement.getUpdateCount());
                if (script && isDml(sql)) {
                    output(affected); // what a script's DML did belongs with its results, on stdout
                } else {
                    info(withTime(affected, start));
                }
            }
            callback.setToSuccess();
        } catch (SQLException e) {
            callback.setToFailure();
            error(loc("Error", Messages.firstLine(e.getMessage()), e.getSQLState() == null ? "" : e.getSQLState(), e.getErrorCode()));
            if (getOpts().getVerbose()) {
                e.printStackTrace(getErrorStream());
            }
        }
    }

    private String withTime(String message, long start) {
        return getOpts().getShowElapsedTime() ? message + " " + locElapsedTime(System.currentTimeMillis() - start) : message;
    }

    private static boolean isDml(String sql) {
        String first = sql.stripLeading().split("[\\s(]", 2)[0].toUpperCase(Locale.ROOT);
        return first.equals("INSERT") || first.equals("UPDATE") || first.equals("DELETE") || first.equals("MERGE")
                || first.equals("UPSERT");
    }
}
