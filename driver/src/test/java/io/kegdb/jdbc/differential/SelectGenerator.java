package io.kegdb.jdbc.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random SELECTs over {@link RandomTable}s that KegDB and H2 must answer alike: filters on the key (equality,
 * ranges, BETWEEN, IN, LIKE prefixes) and on the value (NULL tests, comparisons), projections with CASE and
 * functions, DISTINCT, aggregates, GROUP BY and HAVING, inner, left and right joins on keys and values (with
 * more conditions in ON: on the joined side alone or comparing both), self joins, IN / EXISTS /
 * scalar sub-queries, UNION, derived tables with ORDER BY and LIMIT. Only what both read the same way: a LIMIT
 * or OFFSET only under a total order, NULL ordering always spelt out, no integer division, no CHAR results of
 * different lengths (CASE yields numbers or columns).
 */
final class SelectGenerator {

    /** A statement and whether its ORDER BY orders every row (so rows compare in order). */
    record Query(String sql, boolean ordered) {
    }

    private final Random r;
    private final List<RandomTable> tables;

    SelectGenerator(Random r, List<RandomTable> tables) {
        this.r = r;
        this.tables = tables;
    }

    Query next() {
        return switch (r.nextInt(9)) {
            case 0, 1 -> filtered();
            case 2 -> aggregate();
            case 3 -> groupBy();
            case 4, 5 -> join();
            case 6 -> subQuery();
            case 7 -> union();
            default -> derived();
        };
    }

    private RandomTable table() {
        return tables.get(r.nextInt(tables.size()));
    }

    private Query filtered() {
        RandomTable t = table();
        boolean distinct = r.nextInt(6) == 0;
        if (distinct) {
            boolean order = r.nextBoolean();
            return new Query("SELECT DISTINCT v FROM " + t.name() + where(t, "") + (order ? " ORDER BY v NULLS FIRST"
                    + limit() : ""), order);
        }
        String projection = switch (r.nextInt(6)) {
            case 0 -> "*";
            case 1 -> "k";
            case 2 -> "v";
            case 3 -> "k, CASE WHEN " + predicate(t, "", 1) + " THEN 1 ELSE 0 END AS c";
            case 4 -> "k, " + valueExpression(t, "");
            default -> "k, v";
        };
        boolean order = r.nextBoolean();
        String orderBy = order ? " ORDER BY k" + (r.nextBoolean() ? " DESC" : "") + limit() : "";
        return new Query("SELECT " + projection + " FROM " + t.name() + where(t, "") + orderBy, order);
    }

    /** An expression over the value: a function of its type, or COALESCE with a literal of its type. */
    private String valueExpression(RandomTable t, String alias) {
        String v = alias + "v";
        return switch (t.valueType()) {
            case BIGINT -> switch (r.nextInt(4)) {
                case 0 -> v + " + " + r.nextInt(10);
                case 1 -> "ABS(" + v + ")";
                case 2 -> "MOD(" + v + ", " + (2 + r.nextInt(3)) + ")";
                default -> "COALESCE(" + v + ", " + t.valueType().randomLiteral(r) + ")";
            };
            case VARCHAR -> switch (r.nextInt(4)) {
                case 0 -> "UPPER(" + v + ")";
                case 1 -> "CHAR_LENGTH(" + v + ")";
                case 2 -> v + " || 'x'";
                default -> "SUBSTRING(" + v + " FROM 2 FOR 2)";
            };
            case VARBINARY -> "COALESCE(" + v + ", " + t.valueType().randomLiteral(r) + ")";
        };
    }

    private Query aggregate() {
        RandomTable t = table();
        StringBuilder sb = new StringBuilder("SELECT COUNT(*), COUNT(v), MIN(k), MAX(k)");
        if (t.valueType() != ColumnType.VARBINARY) {
            sb.append(", MIN(v), MAX(v)");
        }
        if (t.valueType() == ColumnType.BIGINT) {
            sb.append(", SUM(v)");
        }
        if (t.keyType() == ColumnType.BIGINT) {
            sb.append(", SUM(k)");
        }
        return new Query(sb.append(" FROM ").append(t.name()).append(where(t, "")).toString(), true);
    }

    private Query groupBy() {
        RandomTable t = table();
        boolean order = r.nextBoolean();
        String having = r.nextInt(3) == 0 ? " HAVING COUNT(*) > " + r.nextInt(3) : "";
        if (t.keyType() == ColumnType.BIGINT && r.nextInt(3) == 0) {
            return new Query("SELECT MOD(k, 3) AS g, COUNT(*), MAX(k) FROM " + t.name() + where(t, "")
                    + " GROUP BY MOD(k, 3)" + having + (order ? " ORDER BY g" : ""), order);
        }
        return new Query("SELECT v, COUNT(*), MIN(k), MAX(k) FROM " + t.name() + where(t, "") + " GROUP BY v"
                + having + (order ? " ORDER BY v NULLS LAST" + limit() : ""), order);
    }

    private Query join() {
        RandomTable a = table();
        List<String> conditions = new ArrayList<>();
        List<RandomTable> partners = new ArrayList<>();
        for (RandomTable b : tables) {
            if (b.keyType() == a.keyType()) {
                conditions.add("a.k = b.k");
                partners.add(b);
            }
            if (a.valueType() == b.keyType()) {
                conditions.add("a.v = b.k");
                partners.add(b);
            }
            if (a.keyType() == b.valueType()) {
                conditions.add("a.k = b.v");
                partners.add(b);
            }
        }
        int pick = r.nextInt(conditions.size()); // a.k = a.k with itself is always there
        RandomTable b = partners.get(pick);
        String join = switch (r.nextInt(6)) {
            case 0, 1 -> " LEFT JOIN ";
            case 2 -> " RIGHT JOIN ";
            default -> " JOIN ";
        };
        // More in the ON clause: a condition of the joined side's own (for an outer join it limits the matches,
        // not the rows), or one comparing both sides.
        String on = switch (r.nextInt(5)) {
            case 0 -> " AND " + keyPredicate(b, "b.");
            case 1 -> " AND " + predicate(b, "b.", 1);
            case 2 -> a.valueType() == b.valueType() && a.valueType() != ColumnType.VARBINARY ? " AND a.v <> b.v" : "";
            default -> "";
        };
        String filter = switch (r.nextInt(4)) {
            case 0 -> "";
            case 1 -> " WHERE a.k = " + a.keyType().randomLiteral(r); // the point join
            case 2 -> " WHERE " + keyPredicate(a, "a.");
            default -> " WHERE " + predicate(a, "a.", 1) + " AND " + predicate(b, "b.", 1);
        };
        boolean order = r.nextBoolean();
        // A row joins a row of a with one of b, or one of either with nulls: a.k, b.k orders every row.
        String orderBy = order ? " ORDER BY a.k NULLS FIRST, b.k NULLS FIRST" + limit() : "";
        return new Query("SELECT a.k, a.v, b.k, b.v FROM " + a.name() + " a" + join + b.name() + " b ON "
                + conditions.get(pick) + on + filter + orderBy, order);
    }

    private Query subQuery() {
        RandomTable a = table();
        List<RandomTable> sameKey = tables.stream().filter(b -> b.keyType() == a.keyType()).toList();
        RandomTable b = sameKey.get(r.nextInt(sameKey.size()));
        List<RandomTable> valueAsKey = tables.stream().filter(x -> x.keyType() == a.valueType()).toList();
        int shape = r.nextInt(valueAsKey.isEmpty() ? 3 : 5);
        String sql = switch (shape) {
            case 0 -> "SELECT k, v FROM " + a.name() + " WHERE k " + (r.nextBoolean() ? "" : "NOT ") + "IN (SELECT k FROM "
                    + b.name() + where(b, "") + ")";
            case 1 -> "SELECT a.k, (SELECT COUNT(*) FROM " + b.name() + " b WHERE b.k <= a.k) AS c FROM " + a.name()
                    + " a" + where(a, "a.");
            case 2 -> "SELECT k FROM " + a.name() + " WHERE k > (SELECT MIN(k) FROM " + b.name() + where(b, "") + ")";
            case 3 -> {
                RandomTable c = valueAsKey.get(r.nextInt(valueAsKey.size()));
                yield "SELECT k, v FROM " + a.name() + " a WHERE " + (r.nextBoolean() ? "" : "NOT ")
                        + "EXISTS (SELECT 1 FROM " + c.name() + " c WHERE c.k = a.v)";
            }
            default -> {
                // NOT IN over a list that may hold NULL: no row qualifies then, in both.
                RandomTable c = valueAsKey.get(r.nextInt(valueAsKey.size()));
                yield "SELECT k FROM " + c.name() + " WHERE k " + (r.nextBoolean() ? "" : "NOT ") + "IN (SELECT v FROM "
                        + a.name() + where(a, "") + ")";
            }
        };
        return new Query(sql, false);
    }

    private Query union() {
        RandomTable a = table();
        List<RandomTable> sameKey = tables.stream().filter(b -> b.keyType() == a.keyType()).toList();
        RandomTable b = sameKey.get(r.nextInt(sameKey.size()));
        return new Query("SELECT k FROM " + a.name() + where(a, "") + (r.nextBoolean() ? " UNION " : " UNION ALL ")
                + "SELECT k FROM " + b.name() + where(b, ""), false);
    }

    /** An ordered, limited derived table, aggregated: the LIMIT must take the first rows of that order. */
    private Query derived() {
        RandomTable t = table();
        return new Query("SELECT COUNT(*), MIN(x), MAX(x) FROM (SELECT k AS x FROM " + t.name() + where(t, "")
                + " ORDER BY k" + (r.nextBoolean() ? " DESC" : "") + " LIMIT " + (1 + r.nextInt(8)) + ") s", true);
    }

    private String limit() {
        return switch (r.nextInt(4)) {
            case 0 -> " LIMIT " + r.nextInt(6);
            case 1 -> " LIMIT " + (1 + r.nextInt(6)) + " OFFSET " + r.nextInt(6);
            default -> "";
        };
    }

    private String where(RandomTable t, String alias) {
        return r.nextInt(5) == 0 ? "" : " WHERE " + predicate(t, alias, 2);
    }

    private String predicate(RandomTable t, String alias, int depth) {
        int choice = r.nextInt(depth > 0 ? 10 : 6);
        return switch (choice) {
            case 0, 1, 2, 3 -> keyPredicate(t, alias);
            case 4, 5 -> valuePredicate(t, alias);
            case 6, 7 -> "(" + predicate(t, alias, depth - 1) + " AND " + predicate(t, alias, depth - 1) + ")";
            case 8 -> "(" + predicate(t, alias, depth - 1) + " OR " + predicate(t, alias, depth - 1) + ")";
            default -> "NOT (" + predicate(t, alias, depth - 1) + ")";
        };
    }

    private String keyPredicate(RandomTable t, String alias) {
        return comparison(alias + "k", t.keyType());
    }

    private String valuePredicate(RandomTable t, String alias) {
        String v = alias + "v";
        return switch (r.nextInt(4)) {
            case 0 -> v + " IS NULL";
            case 1 -> v + " IS NOT NULL";
            default -> comparison(v, t.valueType());
        };
    }

    private String comparison(String column, ColumnType type) {
        int choice = r.nextInt(type == ColumnType.VARCHAR ? 10 : 8);
        return switch (choice) {
            case 0 -> column + " = " + type.randomLiteral(r);
            case 1 -> column + " <> " + type.randomLiteral(r);
            case 2 -> column + (r.nextBoolean() ? " < " : " <= ") + type.randomLiteral(r);
            case 3 -> column + (r.nextBoolean() ? " > " : " >= ") + type.randomLiteral(r);
            case 4, 5 -> column + " BETWEEN " + type.randomLiteral(r) + " AND " + type.randomLiteral(r);
            case 6 -> column + (r.nextInt(3) == 0 ? " NOT IN (" : " IN (") + type.randomLiteral(r) + ", "
                    + type.randomLiteral(r) + ", " + type.randomLiteral(r) + ")";
            case 7 -> column + " >= " + type.randomLiteral(r) + " AND " + column + " < " + type.randomLiteral(r);
            default -> column + " LIKE '" + ColumnType.VARCHAR.value(r) + "%'"; // a _ in the prefix is a wildcard in both
        };
    }
}
