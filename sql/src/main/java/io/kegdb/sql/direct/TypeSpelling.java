package io.kegdb.sql.direct;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.ColumnType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The type of a column as DDL spells it, mapped onto the nine {@link ColumnType}s the way H2 and SQLite read
 * the common spellings ({@code INT}, {@code TEXT}, {@code DATETIME}, ...). A spelling is accepted only where
 * the column keeps every value of the declared type exactly (the same or a wider type); a type that would
 * lose values or change their meaning ({@code TIME}, {@code TIMESTAMP WITH TIME ZONE}, a zero-padded
 * {@code BINARY(n)}, a {@code DECIMAL} wider than 19 digits) is refused with 42000. The table is in docs/SQL.md.
 *
 * @param type   the column type
 * @param length the maximum length (VARCHAR, VARBINARY; 0 = unlimited), precision (DECIMAL) or fractional
 *               digits (TIMESTAMP)
 * @param scale  the scale of a DECIMAL; 0 otherwise
 */
record TypeSpelling(ColumnType type, int length, int scale) {

    /** What a spelling is read as: the column type and the numbers it takes in parentheses. */
    private enum Form {
        /** VARCHAR[(n)]: at most a length. */
        VARIABLE_LENGTH,
        /** CHAR[(n)]: a length, 1 when absent (the standard's default). */
        FIXED_LENGTH,
        /** TEXT, BLOB: unlimited, no length. */
        UNLIMITED,
        /** CLOB[(n)]: unlimited unless a length is given. */
        LARGE_OBJECT,
        /** BIGINT, INTEGER, BOOLEAN, DATE, DOUBLE: no numbers. */
        PLAIN,
        /** FLOAT[(p)]: a binary precision of 1 to 53. */
        FLOAT,
        /** DECIMAL[(p[,s])]. */
        DECIMAL,
        /** TIMESTAMP[(p)] [WITHOUT TIME ZONE]. */
        TIMESTAMP
    }

    private record Reading(ColumnType type, Form form) {
    }

    /** Reads a type at {@code c}, after the column name {@code column}. */
    static TypeSpelling parse(TokenCursor c, String column) throws SqlError {
        Lexer.Token first = c.next();
        if (first.kind() != Lexer.Kind.WORD) {
            throw unsupported(first.text(), column);
        }
        String spelling = spelling(first, c);
        Reading reading = reading(spelling, column);
        int[] numbers = numbers(c, column);
        return switch (reading.form()) {
            case VARIABLE_LENGTH, FIXED_LENGTH, LARGE_OBJECT -> {
                atMost(numbers, 1, spelling, column);
                int length = numbers.length == 1 ? numbers[0] : reading.form() == Form.FIXED_LENGTH ? 1 : 0;
                if (numbers.length == 1 && length <= 0) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "length of column " + column + " must be positive");
                }
                yield new TypeSpelling(reading.type(), length, 0);
            }
            case UNLIMITED, PLAIN -> {
                atMost(numbers, 0, spelling, column);
                yield new TypeSpelling(reading.type(), 0, 0);
            }
            case FLOAT -> {
                atMost(numbers, 1, spelling, column);
                if (numbers.length == 1 && (numbers[0] < 1 || numbers[0] > 53)) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column + " FLOAT(" + numbers[0]
                            + "): the precision of a FLOAT is 1 to 53 binary digits");
                }
                yield new TypeSpelling(ColumnType.DOUBLE, 0, 0);
            }
            case DECIMAL -> {
                atMost(numbers, 2, spelling, column);
                int precision = numbers.length == 0 ? ColumnType.MAX_DECIMAL_PRECISION : numbers[0];
                int scale = numbers.length == 2 ? numbers[1] : 0;
                if (precision < 1 || precision > ColumnType.MAX_DECIMAL_PRECISION || scale > precision) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column + " " + spelling
                            + text(numbers) + ": precision must be 1 to " + ColumnType.MAX_DECIMAL_PRECISION
                            + " and scale 0 to the precision");
                }
                yield new TypeSpelling(ColumnType.DECIMAL, precision, scale);
            }
            case TIMESTAMP -> {
                atMost(numbers, 1, spelling, column);
                int digits = numbers.length == 0 ? ColumnType.MAX_TIMESTAMP_PRECISION : numbers[0];
                if (digits > 9) {
                    throw new SqlError(SqlState.SYNTAX_ERROR,
                            "column " + column + ": " + spelling + " precision must be 0 to 9");
                }
                if (c.accept("WITHOUT")) {
                    expect(c, "TIME");
                    expect(c, "ZONE");
                } else if (c.peek().is("WITH")) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column + ": " + spelling
                            + " WITH TIME ZONE is not supported; use TIMESTAMP (a local date-time)");
                }
                // Values are kept to the millisecond: finer precisions are accepted and hold milliseconds.
                yield new TypeSpelling(ColumnType.TIMESTAMP, Math.min(digits, ColumnType.MAX_TIMESTAMP_PRECISION), 0);
            }
        };
    }

    /** The spelling in upper case, the words of a multi-word name ({@code DOUBLE PRECISION}) joined by a space. */
    private static String spelling(Lexer.Token first, TokenCursor c) throws SqlError {
        String word = first.text().toUpperCase(Locale.ROOT);
        switch (word) {
            case "DOUBLE" -> {
                return c.accept("PRECISION") ? "DOUBLE PRECISION" : word;
            }
            case "CHARACTER", "CHAR", "NCHAR", "BINARY" -> {
                if (c.accept("VARYING")) {
                    return word + " VARYING";
                }
                if (c.accept("LARGE")) {
                    expect(c, "OBJECT");
                    return word + " LARGE OBJECT";
                }
                return word;
            }
            default -> {
                return word;
            }
        }
    }

    private static Reading reading(String spelling, String column) throws SqlError {
        return switch (spelling) {
            case "VARCHAR", "CHARACTER VARYING", "CHAR VARYING", "NCHAR VARYING", "VARCHAR2", "NVARCHAR",
                 "NVARCHAR2" -> new Reading(ColumnType.VARCHAR, Form.VARIABLE_LENGTH);
            // Kept as VARCHAR(n) without padding (as SQLite stores it and MySQL returns it): the length limit
            // holds, values read back as written.
            case "CHAR", "CHARACTER", "NCHAR" -> new Reading(ColumnType.VARCHAR, Form.FIXED_LENGTH);
            case "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "LONGVARCHAR" ->
                    new Reading(ColumnType.VARCHAR, Form.UNLIMITED);
            case "CLOB", "NCLOB", "CHARACTER LARGE OBJECT", "CHAR LARGE OBJECT" ->
                    new Reading(ColumnType.VARCHAR, Form.LARGE_OBJECT);
            case "VARBINARY", "BINARY VARYING" -> new Reading(ColumnType.VARBINARY, Form.VARIABLE_LENGTH);
            case "BLOB", "BINARY LARGE OBJECT" -> new Reading(ColumnType.VARBINARY, Form.LARGE_OBJECT);
            case "BYTEA", "LONGVARBINARY", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB" ->
                    new Reading(ColumnType.VARBINARY, Form.UNLIMITED);
            case "BIGINT", "INT8" -> new Reading(ColumnType.BIGINT, Form.PLAIN);
            // The narrower integers are held as INTEGER: every value they take is kept.
            case "INTEGER", "INT", "INT4", "MEDIUMINT", "SMALLINT", "INT2", "TINYINT" ->
                    new Reading(ColumnType.INTEGER, Form.PLAIN);
            // REAL is held as a double (as SQLite and H2's FLOAT do): every 4-byte float is kept exactly.
            case "DOUBLE", "DOUBLE PRECISION", "FLOAT8", "REAL", "FLOAT4" -> new Reading(ColumnType.DOUBLE, Form.PLAIN);
            case "FLOAT" -> new Reading(ColumnType.DOUBLE, Form.FLOAT);
            case "BOOLEAN", "BOOL" -> new Reading(ColumnType.BOOLEAN, Form.PLAIN);
            case "DECIMAL", "NUMERIC", "DEC" -> new Reading(ColumnType.DECIMAL, Form.DECIMAL);
            case "DATE" -> new Reading(ColumnType.DATE, Form.PLAIN);
            // DATETIME is H2's (and SQL Server's) name of TIMESTAMP.
            case "TIMESTAMP", "DATETIME" -> new Reading(ColumnType.TIMESTAMP, Form.TIMESTAMP);
            case "BINARY" -> throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column
                    + ": BINARY(n) pads its values with zero bytes, which a key/value table does not keep;"
                    + " use VARBINARY(n)");
            case "TIMESTAMPTZ" -> throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column
                    + ": TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP (a local date-time)");
            default -> throw unsupported(spelling, column);
        };
    }

    private static SqlError unsupported(String spelling, String column) {
        return new SqlError(SqlState.SYNTAX_ERROR, "unsupported type " + spelling + " for column " + column
                + ": key/value tables take VARCHAR, VARBINARY, BIGINT, INTEGER, DOUBLE, BOOLEAN, DECIMAL, DATE"
                + " or TIMESTAMP (and their usual spellings, see docs/SQL.md)");
    }

    /** {@code (n)} or {@code (n, m)} after a type name: the numbers (none if there are no parentheses). */
    private static int[] numbers(TokenCursor c, String column) throws SqlError {
        if (!c.accept('(')) {
            return new int[0];
        }
        List<Integer> out = new ArrayList<>();
        do {
            Lexer.Token n = c.next();
            if (n.kind() != Lexer.Kind.NUMBER) {
                throw DdlPlan.syntax(n, "a number");
            }
            try {
                out.add(Integer.parseInt(n.text()));
            } catch (NumberFormatException e) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "length " + n.text() + " of column " + column
                        + " is too large");
            }
        } while (c.accept(','));
        if (!c.accept(')')) {
            throw DdlPlan.syntax(c.peek(), "')'");
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void atMost(int[] numbers, int allowed, String spelling, String column) throws SqlError {
        if (numbers.length > allowed) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column + ": " + spelling + " takes "
                    + (allowed == 0 ? "no length or precision" : allowed == 1 ? "at most one number"
                    : "at most (precision, scale)") + ", not " + spelling + text(numbers));
        }
    }

    private static String text(int[] numbers) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < numbers.length; i++) {
            b.append(i == 0 ? "" : ", ").append(numbers[i]);
        }
        return b.append(')').toString();
    }

    private static void expect(TokenCursor c, String word) throws SqlError {
        if (!c.accept(word)) {
            throw DdlPlan.syntax(c.peek(), word);
        }
    }
}
