package io.kegdb.sql.plan;

import io.kegdb.engine.DiskFullException;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.sql.SqlError;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

import java.io.UncheckedIOException;

/** Maps what Calcite, the store or the JDK throw to SQLState-bearing errors. */
public final class SqlErrors {

    /** Statement too complex: nesting too deep. */
    static final String TOO_COMPLEX = "54001";

    private SqlErrors() {
    }

    /** SQLState of a transaction or statement that conflicted with a concurrent commit: retry it. */
    public static final String SERIALIZATION_FAILURE = "40001";

    public static SqlError translate(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof StackOverflowError) {
                // Calcite's parser, validator and planner recurse once per nesting level.
                return new SqlError(TOO_COMPLEX, "statement too complex: its expressions or sub-queries are nested"
                        + " too deeply to be parsed, planned or run", t);
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            SqlError known = known(c);
            if (known != null) {
                return known;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return new SqlError("HY000", "internal error: " + t, t);
    }

    private static SqlError known(Throwable c) {
        if (c instanceof SqlError e) {
            return e;
        }
        if (c instanceof StatementFailure f) {
            return f.error;
        }
        if (c instanceof SqlParseException p) {
            return new SqlError("42000", "syntax error: " + firstLine(p.getMessage()), p);
        }
        if (c instanceof CalciteContextException v) {
            String m = v.getMessage();
            String inner = v.getCause() != null ? v.getCause().getMessage() : m;
            String state = "42000";
            if (inner.matches("(?s)(Object|Table) '.*' not found.*")) {
                state = "42S02";
            } else if (inner.matches("(?s)(Column '.*' not found.*|Unknown target column.*|Unknown field.*)")) {
                state = "42S22";
            }
            return new SqlError(state, m, v);
        }
        if (c instanceof WriteConflictException w) {
            return new SqlError(SERIALIZATION_FAILURE, "could not serialize access: " + w.getMessage()
                    + "; nothing was written, run the transaction again", w);
        }
        if (c instanceof SnapshotTooOldException old) {
            return new SqlError(SERIALIZATION_FAILURE, old.getMessage() + "; run the transaction again", old);
        }
        if (c instanceof KeyExistsException k) {
            return new SqlError("23505", "duplicate key: " + k.getMessage(), k);
        }
        if (c instanceof NumberFormatException n) {
            return new SqlError("22018", "invalid number: " + n.getMessage(), n);
        }
        if (c instanceof ArithmeticException a) {
            return new SqlError(String.valueOf(a.getMessage()).contains("by zero") ? "22012" : "22003",
                    String.valueOf(a.getMessage()), a);
        }
        if (c instanceof UncheckedIOException io) {
            if (io.getCause() instanceof DiskFullException full) {
                // PostgreSQL's disk_full: nothing of the statement was written.
                return new SqlError("53100", "disk full: " + full.getMessage(), io);
            }
            return new SqlError("58030", "I/O error: " + io.getMessage(), io);
        }
        if (c instanceof RelOptPlanner.CannotPlanException p) {
            return new SqlError("42000", "statement cannot be planned: " + firstLine(p.getMessage()), p);
        }
        if (c instanceof IllegalArgumentException i && c.getStackTrace().length > 0
                && c.getStackTrace()[0].getClassName().startsWith("io.kegdb.engine")) {
            // The store's limits: a key or value too large, or a transaction too large for one batch.
            String m = String.valueOf(i.getMessage());
            if (m.contains("maxKeySize") || m.contains("maxValueSize")) {
                m += " (a row is stored as its table's 4-byte id + the encoded key, and 1 byte + the encoded value)";
            }
            return new SqlError(m.contains("batch") ? "54000" : "22001", m, i);
        }
        if (c instanceof java.util.regex.PatternSyntaxException p) {
            return new SqlError("2201B", "invalid regular expression: " + firstLine(p.getMessage()), p);
        }
        String message = String.valueOf(c.getMessage());
        if (c instanceof RuntimeException && message.startsWith("Invalid escape")) {
            return new SqlError("22025", message, c);
        }
        if (c instanceof RuntimeException && message.startsWith("Invalid character for cast")) {
            return new SqlError("22018", message, c);
        }
        if (c instanceof AssertionError && message.startsWith("not a query")) {
            // Calcite's validator lets EXISTS take an expression; only a sub-query can be converted.
            return new SqlError("42000", "a sub-query is needed here (" + message + ")", c);
        }
        if (c instanceof RuntimeException && message.startsWith("Substring error")) {
            return new SqlError("22011", message, c);
        }
        if (c instanceof IllegalArgumentException && message.contains("due to overflow")) {
            return new SqlError("22003", message, c);
        }
        if (c instanceof IllegalArgumentException && message.matches("(?s)Invalid (DATE|TIME|TIMESTAMP)\\b.*")) {
            // A date/time literal or cast that does not parse, e.g. DATE '2020-01-01' = ''.
            return new SqlError("22007", message, c);
        }
        if (c instanceof RuntimeException && message.startsWith("Error while compiling generated Java code")) {
            // Calcite accepted the statement but cannot generate code for it (e.g. ORDER BY a ROW value).
            return new SqlError("42000", "this statement cannot be compiled (ordering or grouping by a ROW"
                    + " value is one known case)", c);
        }
        if (c instanceof IllegalStateException s && String.valueOf(s.getMessage()).contains("closed")) {
            return new SqlError("08003", s.getMessage(), s);
        }
        return null;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
