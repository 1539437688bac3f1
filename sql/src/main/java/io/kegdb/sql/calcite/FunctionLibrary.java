package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.util.NlsString;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The functions a statement may call: Calcite's standard operators, then a chosen set of the functions of
 * Calcite's library operator tables (MySQL, Oracle, PostgreSQL, BigQuery) that other databases spell the same
 * way and mean the same by, each picked in the variant H2 agrees with. A standard name always means the
 * standard operator (the standard table is looked in first), except the variances and standard deviations,
 * which are KegDB's ({@link Variances}). The list, with the choices made where the
 * libraries disagree, is in docs/SQL.md.
 *
 * <p>Two spellings have no Calcite library operator of the same meaning and are rewritten in the parsed
 * statement: {@code NOW([p])} is {@code CURRENT_TIMESTAMP[(p)]}, and PostgreSQL's and H2's
 * {@code DATE_TRUNC('unit', x)} is {@code FLOOR(x TO unit)} (Calcite's own DATE_TRUNC is BigQuery's, with the
 * operands the other way round).
 */
final class FunctionLibrary {

    private FunctionLibrary() {
    }

    /**
     * The operator table, built once. It costs a first planned statement little: Calcite's standard convertlet
     * table, which every planning uses, initializes the library operators' class anyway.
     */
    static SqlOperatorTable operatorTable() {
        return Table.INSTANCE;
    }

    private static final class Table {
        static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(
                new Hiding(SqlStdOperatorTable.instance(), Variances.REPLACED),
                SqlOperatorTables.of(Variances.FUNCTIONS),
                SqlOperatorTables.of(
                        // strings
                        SqlLibraryOperators.LENGTH,
                        // a negative start counts from the end (MySQL, Oracle, H2; not PostgreSQL)
                        SqlLibraryOperators.SUBSTR_MYSQL,
                        SqlLibraryOperators.INSTR,
                        SqlLibraryOperators.LPAD,
                        SqlLibraryOperators.RPAD,
                        SqlLibraryOperators.LTRIM,
                        SqlLibraryOperators.RTRIM,
                        SqlLibraryOperators.LEFT,
                        SqlLibraryOperators.RIGHT,
                        SqlLibraryOperators.REPEAT,
                        SqlLibraryOperators.SPACE,
                        SqlLibraryOperators.CHR,
                        // NULL arguments count as '' (PostgreSQL, Oracle, H2; not MySQL); || stays standard
                        SqlLibraryOperators.CONCAT_FUNCTION_WITH_NULL,
                        SqlLibraryOperators.CONCAT_WS,
                        SqlLibraryOperators.REGEXP_LIKE,
                        // replaces every match (MySQL, Oracle, H2; PostgreSQL's replaces the first)
                        SqlLibraryOperators.REGEXP_REPLACE_3,
                        // null handling
                        SqlLibraryOperators.IFNULL,
                        SqlLibraryOperators.NVL,
                        SqlLibraryOperators.NVL2,
                        SqlLibraryOperators.DECODE,
                        // NULL if any argument is NULL (H2, MySQL, Oracle; PostgreSQL skips NULLs)
                        SqlLibraryOperators.GREATEST,
                        SqlLibraryOperators.LEAST,
                        // numbers
                        SqlLibraryOperators.COSH,
                        SqlLibraryOperators.SINH,
                        SqlLibraryOperators.TANH));
    }

    /** A table without some of its operators: KegDB's own stand in for them under the same names. */
    private record Hiding(SqlOperatorTable table, Set<SqlOperator> hidden) implements SqlOperatorTable {
        @Override
        public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                            List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
            List<SqlOperator> found = new ArrayList<>();
            table.lookupOperatorOverloads(opName, category, syntax, found, nameMatcher);
            found.removeAll(hidden);
            operatorList.addAll(found);
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            return table.getOperatorList().stream().filter(op -> !hidden.contains(op)).toList();
        }
    }

    /** Rewrites {@code NOW} and {@code DATE_TRUNC} in {@code statement} in place (see the class comment). */
    static void respell(SqlNode statement) throws SqlError {
        Respelling r = new Respelling();
        statement.accept(r);
        if (r.error != null) {
            throw r.error;
        }
    }

    private static final class Respelling extends ParsedRewrite {
        SqlError error;

        @Override
        SqlNode replacement(SqlNode node) {
            if (!(node instanceof SqlCall call) || !(call.getOperator() instanceof SqlFunction f)) {
                return null;
            }
            String name = f.getName().toUpperCase(Locale.ROOT);
            if (f instanceof SqlUnresolvedFunction && name.equals("NOW") && call.operandCount() <= 1) {
                return SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(call.getParserPosition(),
                        call.getOperandList());
            }
            if (name.equals("DATE_TRUNC") && call.operandCount() == 2) {
                TimeUnit unit = call.operand(0) instanceof SqlCharStringLiteral text
                        ? unit(text.getValueAs(NlsString.class).getValue()) : null;
                if (unit == null) {
                    if (error == null) {
                        error = new SqlError(SqlState.SYNTAX_ERROR, "DATE_TRUNC takes the unit first, as text:"
                                + " DATE_TRUNC('year' | 'quarter' | 'month' | 'day' | 'hour' | 'minute' | 'second',"
                                + " value), not " + call);
                    }
                    return null;
                }
                return SqlStdOperatorTable.FLOOR.createCall(call.getParserPosition(), call.operand(1),
                        new SqlIntervalQualifier(unit, null, call.operand(0).getParserPosition()));
            }
            return null;
        }

        /**
         * The units whose truncation means the same in PostgreSQL, H2 and Calcite's FLOOR; not WEEK (where a
         * week starts differs) nor DECADE, CENTURY and MILLENNIUM (PostgreSQL's start at year 1, not 0).
         */
        private static TimeUnit unit(String text) {
            return switch (text.trim().toUpperCase(Locale.ROOT)) {
                case "YEAR" -> TimeUnit.YEAR;
                case "QUARTER" -> TimeUnit.QUARTER;
                case "MONTH" -> TimeUnit.MONTH;
                case "DAY" -> TimeUnit.DAY;
                case "HOUR" -> TimeUnit.HOUR;
                case "MINUTE" -> TimeUnit.MINUTE;
                case "SECOND" -> TimeUnit.SECOND;
                default -> null;
            };
        }
    }
}
