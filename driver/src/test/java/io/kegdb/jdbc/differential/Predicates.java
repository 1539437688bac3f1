package io.kegdb.jdbc.differential;

import java.util.List;
import java.util.Random;

/**
 * Predicates and value expressions over a {@link RandomTable} that mean the same in KegDB, H2 and SQLite: a
 * column is compared only with values of its own {@link ColumnType.Family} (a number with any number type,
 * which is where common-type rules show), NULL handling is spelt out, and no integer division.
 *
 * <p>{@code alias} qualifies the table's columns ({@code ""} for bare names, {@code "a."}); a sub-query
 * refers to the outer row through {@link #outer}, so its own columns never capture the outer ones.
 */
final class Predicates {

    /** Predicates that are false (or NULL) on every row: the sub-query above them is empty. */
    private static final List<String> FALSE = List.of("7 < -8", "1 = 0", "%1$sv <> %1$sv", "%1$sk <> %1$sk");
    /** Predicates that hold on every row. */
    private static final List<String> TRUE = List.of("1 = 1", "-8 < 7", "%1$sk = %1$sk");

    private final Random r;
    private final List<RandomTable> tables;
    private int aliases;

    Predicates(Random r, List<RandomTable> tables) {
        this.r = r;
        this.tables = tables;
    }

    RandomTable table() {
        return tables.get(r.nextInt(tables.size()));
    }

    List<RandomTable> tables() {
        return tables;
    }

    /** A table whose key compares with values of {@code type}, or null. */
    RandomTable keyedLike(ColumnType type) {
        List<RandomTable> like = tables.stream().filter(t -> t.keyType().family() == type.family()).toList();
        return like.isEmpty() ? null : like.get(r.nextInt(like.size()));
    }

    /** A table whose value compares with values of {@code type}, or null. */
    RandomTable valuedLike(ColumnType type) {
        List<RandomTable> like = tables.stream().filter(t -> t.valueType().family() == type.family()).toList();
        return like.isEmpty() ? null : like.get(r.nextInt(like.size()));
    }

    /** A fresh alias for a sub-query's table, so nested sub-queries never shadow each other. */
    String alias() {
        return "s" + (++aliases);
    }

    /** How a sub-query names the outer row's columns: by its alias, or by the table's name for bare columns. */
    static String outer(RandomTable t, String alias) {
        return alias.isEmpty() ? t.name() + "." : alias;
    }

    String where(RandomTable t, String alias, boolean rich) {
        return r.nextInt(5) == 0 ? "" : " WHERE " + predicate(t, alias, 2, rich);
    }

    /** A predicate on the table's row; rich ones also use functions and sub-queries. */
    String predicate(RandomTable t, String alias, int depth, boolean rich) {
        int choice = r.nextInt(depth > 0 ? (rich ? 14 : 10) : (rich ? 9 : 6));
        return switch (choice) {
            case 0, 1, 2, 3 -> keyPredicate(t, alias);
            case 4, 5 -> valuePredicate(t, alias);
            case 6, 7 -> functionPredicate(t, alias);
            case 8 -> subQueryPredicate(t, alias);
            case 9, 10 -> "(" + predicate(t, alias, depth - 1, rich) + " AND " + predicate(t, alias, depth - 1, rich) + ")";
            case 11, 12 -> {
                boolean under = rich;
                yield "(" + predicate(t, alias, depth - 1, under) + " OR " + predicate(t, alias, depth - 1, under) + ")";
            }
            default -> "NOT (" + predicate(t, alias, depth - 1, rich) + ")";
        };
    }

    String keyPredicate(RandomTable t, String alias) {
        return comparison(alias + "k", t.keyType());
    }

    String valuePredicate(RandomTable t, String alias) {
        String v = alias + "v";
        return switch (r.nextInt(4)) {
            case 0 -> v + " IS NULL";
            case 1 -> v + " IS NOT NULL";
            default -> comparison(v, t.valueType());
        };
    }

    /** A literal to compare with a column of {@code type}: of its type, or now and then of another number type. */
    String literal(ColumnType type) {
        if (type.numeric() && r.nextInt(4) == 0) {
            ColumnType[] numbers = {ColumnType.INTEGER, ColumnType.BIGINT, ColumnType.DOUBLE, ColumnType.DECIMAL_15_3,
                ColumnType.DECIMAL_5_0, ColumnType.DECIMAL_6_6};
            return numbers[r.nextInt(numbers.length)].randomLiteral(r);
        }
        return type.randomLiteral(r);
    }

    String comparison(String column, ColumnType type) {
        int choice = r.nextInt(type == ColumnType.VARCHAR ? 10 : 8);
        return switch (choice) {
            case 0 -> column + " = " + literal(type);
            case 1 -> column + " <> " + literal(type);
            case 2 -> column + (r.nextBoolean() ? " < " : " <= ") + literal(type);
            case 3 -> column + (r.nextBoolean() ? " > " : " >= ") + literal(type);
            case 4, 5 -> column + " BETWEEN " + literal(type) + " AND " + literal(type);
            case 6 -> column + (r.nextInt(3) == 0 ? " NOT IN (" : " IN (") + literal(type) + ", " + literal(type)
                    + (r.nextBoolean() ? ", " + literal(type) : "") + ")";
            case 7 -> column + " >= " + literal(type) + " AND " + column + " < " + literal(type);
            default -> column + " LIKE '" + ColumnType.VARCHAR.value(r).toString().replace("'", "''") + "%'";
        };
    }

    /** COALESCE, CASE and TRIM inside a predicate: where NULLs and types must survive the rewrite. */
    String functionPredicate(RandomTable t, String alias) {
        String k = alias + "k";
        String v = alias + "v";
        ColumnType vt = t.valueType();
        return switch (vt.family()) {
            case NUMBER -> switch (r.nextInt(5)) {
                case 0, 1 -> r.nextBoolean()
                        ? "COALESCE(" + v + ", " + literal(vt) + ")" + compare() + literal(vt)
                        : t.keyType().numeric() ? "COALESCE(" + v + ", " + k + ")" + compare() + literal(vt)
                        : "COALESCE(" + v + ", " + literal(vt) + ") IS NOT NULL";
                case 2 -> "CASE WHEN " + v + compare() + literal(vt) + " THEN " + v + " ELSE " + literal(vt) + " END"
                        + compare() + literal(vt);
                case 3 -> "CASE WHEN " + v + " IS NULL THEN 0 ELSE 1 END = " + r.nextInt(2);
                default -> "NULLIF(" + v + ", " + literal(vt) + ") IS NULL";
            };
            case TEXT -> switch (r.nextInt(5)) {
                case 0 -> "TRIM(" + v + ") = " + literal(vt);
                case 1 -> "TRIM(" + v + ") <> " + v;
                case 2 -> "CHAR_LENGTH(TRIM(" + v + "))" + compare() + r.nextInt(4);
                case 3 -> "COALESCE(" + v + ", " + literal(vt) + ")" + compare() + literal(vt);
                default -> "CASE " + v + " WHEN " + literal(vt) + " THEN " + v + " ELSE TRIM(" + v + ") END = "
                        + literal(vt);
            };
            case BYTES -> "COALESCE(" + v + ", " + literal(vt) + ") = " + literal(vt);
        };
    }

    private String compare() {
        return switch (r.nextInt(5)) {
            case 0 -> " < ";
            case 1 -> " <= ";
            case 2 -> " > ";
            case 3 -> " >= ";
            default -> " = ";
        };
    }

    String falsePredicate(String alias) {
        return String.format(FALSE.get(r.nextInt(FALSE.size())), alias);
    }

    String truePredicate(String alias) {
        return String.format(TRUE.get(r.nextInt(TRUE.size())), alias);
    }

    /**
     * A sub-query predicate: IN / NOT IN on the key or the value, EXISTS / NOT EXISTS, uncorrelated or correlated
     * on either column, over sub-queries that are often empty (by a false predicate or an empty table) or hold
     * every row; now and then OR-ed with a plain predicate.
     */
    String subQueryPredicate(RandomTable t, String alias) {
        String out = outer(t, alias);
        String p = switch (r.nextInt(4)) {
            case 0, 1 -> {
                boolean onValue = r.nextBoolean();
                ColumnType type = onValue ? t.valueType() : t.keyType();
                RandomTable s = r.nextBoolean() ? keyedLike(type) : valuedLike(type);
                if (s == null) {
                    yield keyPredicate(t, alias);
                }
                String column = s.keyType().family() == type.family() ? "k" : "v";
                String a = alias();
                yield alias + (onValue ? "v" : "k") + (r.nextInt(3) == 0 ? " NOT IN " : " IN ") + "(SELECT " + a + "."
                        + column + " FROM " + s.name() + " " + a + subWhere(s, a + ".", t, out) + ")";
            }
            default -> {
                RandomTable s = table();
                String a = alias();
                yield (r.nextInt(3) == 0 ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + s.name() + " " + a
                        + subWhere(s, a + ".", t, out) + ")";
            }
        };
        return r.nextInt(3) == 0 ? "(" + keyPredicate(t, alias) + " OR " + p + ")" : p;
    }

    /** A sub-query's WHERE: none, false, true, its own predicate, or a correlation with the outer row. */
    private String subWhere(RandomTable s, String inner, RandomTable t, String out) {
        return switch (r.nextInt(6)) {
            case 0 -> "";
            case 1 -> " WHERE " + falsePredicate(inner);
            case 2 -> " WHERE " + truePredicate(inner);
            case 3 -> " WHERE " + predicate(s, inner, 1, false);
            default -> {
                String c = correlation(s, inner, t, out);
                yield c == null ? " WHERE " + falsePredicate(inner) : " WHERE " + c;
            }
        };
    }

    /** An equality of a sub-query column with an outer column of the same family, or null when none fits. */
    String correlation(RandomTable s, String inner, RandomTable t, String out) {
        String[] innerCols = {"k", "v"};
        String[] outerCols = {"k", "v"};
        int start = r.nextInt(4);
        for (int i = 0; i < 4; i++) {
            int pick = (start + i) % 4;
            String ic = innerCols[pick / 2];
            String oc = outerCols[pick % 2];
            ColumnType it = ic.equals("k") ? s.keyType() : s.valueType();
            ColumnType ot = oc.equals("k") ? t.keyType() : t.valueType();
            if (it.family() == ot.family()) {
                return inner + ic + (r.nextInt(4) == 0 && it.family() != ColumnType.Family.BYTES ? " <= " : " = ")
                        + out + oc;
            }
        }
        return null;
    }

    /** An expression of the value's own type: an arithmetic or string function, or COALESCE with a literal. */
    String valueExpression(RandomTable t, String alias) {
        String v = alias + "v";
        ColumnType vt = t.valueType();
        return switch (vt.family()) {
            case NUMBER -> switch (r.nextInt(4)) {
                case 0 -> v + " + " + r.nextInt(10);
                case 1 -> "ABS(" + v + ")";
                case 2 -> "-" + v;
                default -> "COALESCE(" + v + ", " + literal(vt) + ")";
            };
            case TEXT -> switch (r.nextInt(5)) {
                case 0 -> "TRIM(" + v + ")";
                case 1 -> "CHAR_LENGTH(" + v + ")";
                case 2 -> v + " || 'x'";
                case 3 -> "SUBSTRING(" + v + " FROM 2 FOR 2)";
                default -> "COALESCE(" + v + ", " + literal(vt) + ")";
            };
            case BYTES -> "COALESCE(" + v + ", " + literal(vt) + ")";
        };
    }
}
