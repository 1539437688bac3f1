package io.kegdb.sql.plan;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.StoreErrors;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Maps what Calcite, the store or the JDK throw to SQLState-bearing errors. The store's failures are mapped by
 * type in {@link StoreErrors}. Calcite's runtime and validator (and the JDK's ArithmeticException) throw plain
 * RuntimeExceptions (and the odd AssertionError) for bad values and unsupported shapes, with nothing but the
 * message to tell them apart: those, and only those, are recognised by their message text here.
 */
public final class SqlErrors {

    private SqlErrors() {
    }

    public static SqlError translate(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof StackOverflowError) {
                // Calcite's parser, validator and planner recurse once per nesting level.
                return new SqlError(SqlState.STATEMENT_TOO_COMPLEX,
                        "statement too complex: its expressions or sub-queries are nested"
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
        return new SqlError(SqlState.GENERAL_ERROR, "internal error: " + t, t);
    }

    private static SqlError known(Throwable c) {
        if (c instanceof SqlError e) {
            return e;
        }
        if (c instanceof StatementFailure f) {
            return f.error;
        }
        if (c instanceof SqlParseException p) {
            return new SqlError(SqlState.SYNTAX_ERROR, "syntax error: " + firstLine(p.getMessage()), p);
        }
        if (c instanceof CalciteContextException v) {
            String m = v.getMessage();
            String inner = v.getCause() != null ? v.getCause().getMessage() : m;
            String state = SqlState.SYNTAX_ERROR;
            // Calcite's validator names the missing object only in its message (no subtype, no code).
            if (inner.matches("(?s)(Object|Table) '.*' not found.*")) {
                state = SqlState.TABLE_NOT_FOUND;
            } else if (inner.matches("(?s)(Column '.*' not found.*|Unknown target column.*|Unknown field.*)")) {
                state = SqlState.COLUMN_NOT_FOUND;
            } else if (inner.matches("(?s)Column '.*' has no default value and does not allow NULLs.*")) {
                // An INSERT that leaves out the key column.
                state = SqlState.NOT_NULL_VIOLATION;
            }
            return new SqlError(state, m, v);
        }
        SqlError store = StoreErrors.translate(c);
        if (store != null) {
            return store;
        }
        if (c instanceof NumberFormatException n) {
            return new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, "invalid number: " + n.getMessage(), n);
        }
        if (c instanceof ArithmeticException a) {
            String m = String.valueOf(a.getMessage());
            return new SqlError(m.contains("by zero") ? SqlState.DIVISION_BY_ZERO : SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    m, a);
        }
        if (c instanceof RelOptPlanner.CannotPlanException p) {
            return new SqlError(SqlState.SYNTAX_ERROR, "statement cannot be planned: " + firstLine(p.getMessage()), p);
        }
        if (c instanceof java.util.regex.PatternSyntaxException p) {
            return new SqlError(SqlState.INVALID_REGULAR_EXPRESSION,
                    "invalid regular expression: " + firstLine(p.getMessage()), p);
        }
        String message = String.valueOf(c.getMessage());
        if (c instanceof RuntimeException && message.startsWith("Invalid escape")) {
            return new SqlError(SqlState.INVALID_ESCAPE_SEQUENCE, message, c);
        }
        if (c instanceof RuntimeException && message.startsWith("Invalid character for cast")) {
            return new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, message, c);
        }
        if (c instanceof AssertionError && message.startsWith("not a query")) {
            // Calcite's validator lets EXISTS take an expression; only a sub-query can be converted.
            return new SqlError(SqlState.SYNTAX_ERROR, "a sub-query is needed here (" + message + ")", c);
        }
        if (c instanceof AssertionError && message.matches("(?s)Identifier '.*' is not a group expr.*")) {
            // Calcite's validator lets an outer column that is not grouped into a correlated sub-query of an
            // aggregate query; the conversion then finds it is not a group expression.
            return new SqlError(SqlState.SYNTAX_ERROR, message.replace("not a group expr",
                    "neither grouped nor aggregated, as a sub-query of a GROUP BY query needs it to be"), c);
        }
        if (c instanceof IllegalStateException && message.startsWith("more than one value in agg SINGLE_VALUE")) {
            // Calcite's check that a scalar sub-query yields at most one row.
            return new SqlError(SqlState.CARDINALITY_VIOLATION,
                    "a scalar sub-query returned more than one row", c);
        }
        if (c instanceof RuntimeException && message.startsWith("Substring error")) {
            return new SqlError(SqlState.SUBSTRING_ERROR, message, c);
        }
        if (c instanceof IllegalArgumentException && message.contains("due to overflow")) {
            return new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, message, c);
        }
        if (c instanceof IllegalArgumentException && message.matches("(?s)Invalid (DATE|TIME|TIMESTAMP)\\b.*")) {
            // A date/time literal or cast that does not parse, e.g. DATE '2020-01-01' = ''.
            return new SqlError(SqlState.INVALID_DATETIME_FORMAT, message, c);
        }
        if (c instanceof RuntimeException && message.startsWith("Error while compiling generated Java code")) {
            // Calcite accepted the statement but cannot generate code for it (e.g. ORDER BY a ROW value).
            return new SqlError(SqlState.SYNTAX_ERROR,
                    "this statement cannot be compiled (ordering or grouping by a ROW"
                    + " value is one known case)", c);
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
