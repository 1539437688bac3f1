package io.kegdb.jdbc.differential;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random {@link Case}s over the round's tables, one {@link Form} at a time: queries (filters, functions in
 * predicates, arithmetic, aggregates, groups, windows, joins, sub-queries of every kind, ORDER BY ... DESC with
 * LIMIT or FETCH FIRST above them, set operations, CTEs, derived tables) and writes (multi-row INSERTs with
 * NULLs, INSERT ... SELECT, upserts with expressions, UPDATE and DELETE with the same predicates, transactions
 * that commit or roll back).
 *
 * <p>Only what all three read the same way: LIMIT and OFFSET only under an ORDER BY that orders every row, NULL
 * ordering always spelt out, no integer division, no CASE yielding string literals of different lengths (which
 * would be CHAR in the standard and VARCHAR in H2 and SQLite), no duplicate keys within one upsert. Queries
 * with arithmetic on INTEGER or BIGINT are judged by H2 alone: SQLite computes in 64 bits and turns an overflow
 * into a double, where the SQL types (and H2) raise 22003.
 */
final class CaseGenerator {

    private final Random r;
    private List<RandomTable> tables;
    private Predicates p;

    CaseGenerator(Random r, List<RandomTable> tables) {
        this.r = r;
        tables(tables);
    }

    /** The tables as they now are (after a write the databases agreed on). */
    void tables(List<RandomTable> now) {
        this.tables = now;
        this.p = new Predicates(r, now);
    }

    /** How often each form comes, out of 100: reads 73, writes 27. */
    private static final int[][] WEIGHTS = {
        {Form.FILTER.ordinal(), 6}, {Form.VALUE_FUNCTION.ordinal(), 6}, {Form.ARITHMETIC.ordinal(), 6},
        {Form.AGGREGATE.ordinal(), 6}, {Form.GROUP_BY.ordinal(), 5}, {Form.WINDOW.ordinal(), 4},
        {Form.JOIN.ordinal(), 6}, {Form.SUBQUERY.ordinal(), 5}, {Form.CORRELATED_VALUE.ordinal(), 5},
        {Form.EMPTY_OR_TRUE_SUBQUERY.ordinal(), 6}, {Form.ORDER_LIMIT.ordinal(), 6}, {Form.SET_OPERATION.ordinal(), 5},
        {Form.CTE.ordinal(), 4}, {Form.DERIVED.ordinal(), 3}, {Form.INSERT_VALUES.ordinal(), 4},
        {Form.INSERT_SELECT.ordinal(), 3}, {Form.UPSERT.ordinal(), 7}, {Form.UPDATE.ordinal(), 5},
        {Form.DELETE.ordinal(), 4}, {Form.TRANSACTION.ordinal(), 4}};

    Case next() {
        int pick = r.nextInt(100);
        Form form = Form.TRANSACTION;
        for (int[] w : WEIGHTS) {
            if (pick < w[1]) {
                form = Form.values()[w[0]];
                break;
            }
            pick -= w[1];
        }
        RandomTable t = table();
        return switch (form) {
            case FILTER -> filter();
            case VALUE_FUNCTION -> valueFunction();
            case ARITHMETIC -> arithmetic();
            case AGGREGATE -> aggregate();
            case GROUP_BY -> groupBy();
            case WINDOW -> window();
            case JOIN -> join();
            case SUBQUERY -> subQuery();
            case CORRELATED_VALUE -> correlatedValue();
            case EMPTY_OR_TRUE_SUBQUERY -> emptyOrTrue();
            case ORDER_LIMIT -> orderLimit();
            case SET_OPERATION -> setOperation();
            case CTE -> cte();
            case DERIVED -> derived();
            case INSERT_VALUES -> Case.write(form, insertValues(t, new HashSet<>()), t.name());
            case INSERT_SELECT -> insertSelect();
            case UPSERT -> Case.write(form, upsert(t, new HashSet<>()), t.name());
            case UPDATE -> Case.write(form, update(t), t.name());
            case DELETE -> Case.write(form, delete(t), t.name());
            case TRANSACTION -> transaction();
        };
    }

    private RandomTable table() {
        return p.table();
    }

    // ---- queries

    private Case filter() {
        RandomTable t = table();
        if (r.nextInt(6) == 0) {
            boolean order = r.nextBoolean();
            return Case.query(Form.FILTER, "SELECT DISTINCT v FROM " + t.name() + p.where(t, "", false)
                    + (order ? " ORDER BY v " + nulls() + limit() : ""), order);
        }
        String projection = switch (r.nextInt(5)) {
            case 0 -> "*";
            case 1 -> "k";
            case 2 -> "v";
            case 3 -> "k, CASE WHEN " + p.predicate(t, "", 1, false) + " THEN 1 ELSE 0 END AS c";
            default -> "k, v";
        };
        boolean order = r.nextBoolean();
        String orderBy = order ? " ORDER BY k" + (r.nextBoolean() ? " DESC" : "") + limit() : "";
        return Case.query(Form.FILTER, "SELECT " + projection + " FROM " + t.name() + p.where(t, "", false) + orderBy,
                order);
    }

    private Case valueFunction() {
        RandomTable t = table();
        String projection = r.nextBoolean() ? "k, v" : "k, " + p.valueExpression(t, "");
        String where = " WHERE " + p.functionPredicate(t, "") + (r.nextInt(3) == 0 ? (r.nextBoolean() ? " AND " : " OR ")
                + p.predicate(t, "", 1, false) : "");
        boolean order = r.nextBoolean();
        return Case.query(Form.VALUE_FUNCTION, "SELECT " + projection + " FROM " + t.name() + where
                + (order ? " ORDER BY k" + (r.nextBoolean() ? " DESC" : "") + limit() : ""), order);
    }

    private Case arithmetic() {
        RandomTable t = table();
        ColumnType kt = t.keyType();
        ColumnType vt = t.valueType();
        List<Term> terms = new ArrayList<>();
        boolean integral = false;
        if (vt.numeric()) {
            integral = vt.integral();
            terms.add(switch (r.nextInt(6)) {
                case 0 -> Term.of("v", vt, " + ", "v", vt);
                case 1 -> Term.of("v", vt, " * ", Integer.toString(2 + r.nextInt(9)), ColumnType.INTEGER);
                case 2 -> Term.of("v", vt, " - ", p.literal(vt), null);
                case 3 -> Term.of("v", vt, " * ", "v", vt);
                case 4 -> new Term("-v", "-v", vt == ColumnType.DOUBLE);
                default -> Term.of("v", vt, " + ", p.literal(vt), null);
            });
        }
        if (kt.numeric()) {
            integral |= kt.integral();
            terms.add(vt.numeric() && r.nextBoolean() ? Term.of("k", kt, " - ", "v", vt)
                    : Term.of("k", kt, " + ", Integer.toString(1 + r.nextInt(3)), ColumnType.INTEGER));
        }
        if (terms.isEmpty()) {
            return filter();
        }
        String where;
        String h2Where;
        if (r.nextBoolean()) {
            where = p.where(t, "", false);
            h2Where = where;
        } else {
            Term first = terms.get(0);
            String op = r.nextBoolean() ? " > " : " <= ";
            String bound = p.literal(ColumnType.DECIMAL_15_3);
            where = " WHERE " + first.sql() + op + bound;
            h2Where = " WHERE " + first.h2() + op + (first.approximate() ? Term.asDouble(bound) : bound);
        }
        String select = "SELECT k, " + String.join(", ", terms.stream().map(Term::sql).toList()) + " FROM " + t.name();
        String h2Select = "SELECT k, " + String.join(", ", terms.stream().map(Term::h2).toList()) + " FROM " + t.name();
        String sql = select + where + " ORDER BY k";
        Case c = new Case(Form.ARITHMETIC, List.of(new Case.Step(sql, h2Select + h2Where + " ORDER BY k",
                Dialect.SQLITE.spell(sql), true, true, false)), Case.End.AUTOCOMMIT, List.of());
        return integral ? h2Only(c) : c;
    }

    /**
     * An arithmetic term as KegDB and SQLite read it, and as H2 must read it to compute in the standard's types:
     * an operation with an approximate operand (a DOUBLE column, a literal with an exponent) is approximate, but
     * H2 computes a DOUBLE with a DECIMAL exactly (in DECFLOAT), where {@code v + 4.25 > 1.0E300} holds for v =
     * 1.0E300. So H2 gets such a term with every operand cast to DOUBLE PRECISION.
     */
    private record Term(String sql, String h2, boolean approximate) {

        /** {@code left op right}; a literal's type (null) is read from its spelling. */
        static Term of(String left, ColumnType leftType, String op, String right, ColumnType rightType) {
            boolean approximate = approximate(left, leftType) || approximate(right, rightType);
            String sql = left + op + right;
            return new Term(sql, approximate ? asDouble(left) + op + asDouble(right) : sql, approximate);
        }

        private static boolean approximate(String operand, ColumnType type) {
            return type == null ? operand.contains("E") : type == ColumnType.DOUBLE;
        }

        static String asDouble(String operand) {
            return "CAST(" + operand + " AS DOUBLE PRECISION)";
        }
    }

    private static Case h2Only(Case c) {
        List<Case.Step> steps = c.steps().stream().map(s -> new Case.Step(s.kegdb(), s.h2(), null, s.query(),
                s.ordered(), s.counted())).toList();
        return new Case(c.form(), steps, c.end(), c.writes());
    }

    /** Aggregates of a column of {@code type}: every one of them for numbers, the ordered ones otherwise. */
    private List<String> aggregates(String column, ColumnType type) {
        List<String> all = new ArrayList<>(List.of("COUNT(" + column + ")", "COUNT(DISTINCT " + column + ")",
                "MIN(" + column + ")", "MAX(" + column + ")"));
        if (type.numeric()) {
            all.add("SUM(" + column + ")");
            all.add("AVG(" + column + ")");
            all.add("SUM(DISTINCT " + column + ")");
        }
        return all;
    }

    private String someOf(List<String> all, int most) {
        List<String> pool = new ArrayList<>(all);
        List<String> out = new ArrayList<>();
        int n = 1 + r.nextInt(most);
        for (int i = 0; i < n && !pool.isEmpty(); i++) {
            out.add(pool.remove(r.nextInt(pool.size())));
        }
        return String.join(", ", out);
    }

    private Case aggregate() {
        RandomTable t = table();
        List<String> all = new ArrayList<>(aggregates("v", t.valueType()));
        all.addAll(aggregates("k", t.keyType()));
        all.add("COUNT(*)");
        return Case.query(Form.AGGREGATE, "SELECT " + someOf(all, 3) + " FROM " + t.name() + p.where(t, "", r.nextBoolean()),
                true);
    }

    private Case groupBy() {
        RandomTable t = table();
        String having = r.nextInt(3) == 0 ? " HAVING COUNT(*) > " + r.nextInt(3) : "";
        boolean order = r.nextBoolean();
        if (r.nextInt(3) == 0) { // by the key: one group per row
            List<String> perRow = new ArrayList<>(aggregates("k", t.keyType()));
            perRow.addAll(aggregates("v", t.valueType()));
            return Case.query(Form.GROUP_BY, "SELECT k, " + someOf(perRow, 2) + " FROM "
                    + t.name() + p.where(t, "", false) + " GROUP BY k" + having + (order ? " ORDER BY k DESC" + limit()
                    : ""), order);
        }
        List<String> all = new ArrayList<>(aggregates("k", t.keyType()));
        all.addAll(aggregates("v", t.valueType()));
        all.add("COUNT(*)");
        return Case.query(Form.GROUP_BY, "SELECT v, " + someOf(all, 3) + " FROM " + t.name() + p.where(t, "", false)
                + " GROUP BY v" + having + (order ? " ORDER BY v " + nulls() + limit() : ""), order);
    }

    private Case window() {
        RandomTable t = table();
        String dir = r.nextBoolean() ? "" : " DESC";
        List<String> all = new ArrayList<>(List.of("ROW_NUMBER() OVER (ORDER BY k" + dir + ")",
                "COUNT(v) OVER (ORDER BY k" + dir + ")", "COUNT(*) OVER (PARTITION BY v)"));
        if (t.valueType().numeric()) {
            all.add("SUM(v) OVER (ORDER BY k" + dir + ")");
            all.add("SUM(v) OVER (ORDER BY k" + dir + ")");
            all.add("MAX(v) OVER (PARTITION BY v)");
            all.add("AVG(v) OVER (ORDER BY k" + dir + ")");
        }
        if (t.keyType().numeric()) {
            all.add("SUM(k) OVER (ORDER BY k" + dir + ")");
        }
        return Case.query(Form.WINDOW, "SELECT k, " + someOf(all, 2) + " FROM " + t.name() + p.where(t, "", false)
                + " ORDER BY k", true);
    }

    /** A join condition between a and b on columns of one family, or null. */
    private String joinCondition(RandomTable a, RandomTable b) {
        List<String> conditions = new ArrayList<>();
        if (a.keyType().family() == b.keyType().family()) {
            conditions.add("a.k = b.k");
        }
        if (a.valueType().family() == b.keyType().family()) {
            conditions.add("a.v = b.k");
        }
        if (a.keyType().family() == b.valueType().family()) {
            conditions.add("a.k = b.v");
        }
        if (a.valueType().family() == b.valueType().family()) {
            conditions.add("a.v = b.v");
        }
        return conditions.isEmpty() ? null : conditions.get(r.nextInt(conditions.size()));
    }

    private Case join() {
        RandomTable a = table();
        RandomTable b = p.table();
        String condition = joinCondition(a, b);
        if (condition == null) {
            b = a;
            condition = "a.k = b.k";
        }
        String join = switch (r.nextInt(6)) {
            case 0, 1 -> " LEFT JOIN ";
            case 2 -> " RIGHT JOIN ";
            default -> " JOIN ";
        };
        String on = switch (r.nextInt(5)) {
            case 0 -> " AND " + p.keyPredicate(b, "b.");
            case 1 -> " AND " + p.predicate(b, "b.", 1, false);
            case 2 -> a.valueType().family() == b.valueType().family() ? " AND a.v <> b.v" : "";
            default -> "";
        };
        String filter = switch (r.nextInt(4)) {
            case 0 -> "";
            case 1 -> " WHERE a.k = " + a.keyType().randomLiteral(r);
            case 2 -> " WHERE " + p.keyPredicate(a, "a.");
            default -> " WHERE " + p.predicate(a, "a.", 1, false) + " AND " + p.predicate(b, "b.", 1, false);
        };
        boolean order = r.nextBoolean();
        String orderBy = order ? " ORDER BY a.k NULLS FIRST, b.k NULLS FIRST" + limit() : "";
        return Case.query(Form.JOIN, "SELECT a.k, a.v, b.k, b.v FROM " + a.name() + " a" + join + b.name() + " b ON "
                + condition + on + filter + orderBy, order);
    }

    private Case subQuery() {
        RandomTable a = table();
        RandomTable b = p.keyedLike(a.keyType());
        RandomTable c = p.keyedLike(a.valueType());
        String sql = switch (r.nextInt(c == null ? 3 : 5)) {
            case 0 -> "SELECT k, v FROM " + a.name() + " WHERE k " + (r.nextBoolean() ? "" : "NOT ") + "IN (SELECT k FROM "
                    + b.name() + p.where(b, "", false) + ")";
            case 1 -> "SELECT a.k, (SELECT COUNT(*) FROM " + b.name() + " b WHERE b.k <= a.k) AS c FROM " + a.name()
                    + " a" + p.where(a, "a.", false);
            case 2 -> "SELECT k FROM " + a.name() + " WHERE k > (SELECT MIN(k) FROM " + b.name()
                    + p.where(b, "", false) + ")";
            case 3 -> "SELECT k, v FROM " + a.name() + " a WHERE " + (r.nextBoolean() ? "" : "NOT ")
                    + "EXISTS (SELECT 1 FROM " + c.name() + " c WHERE c.k = a.v)";
            default -> "SELECT k FROM " + c.name() + " WHERE k " + (r.nextBoolean() ? "" : "NOT ") + "IN (SELECT v FROM "
                    + a.name() + p.where(a, "", false) + ")";
        };
        return Case.query(Form.SUBQUERY, sql, false);
    }

    private Case correlatedValue() {
        RandomTable a = table();
        RandomTable b = p.keyedLike(a.valueType());
        RandomTable bv = p.valuedLike(a.valueType());
        if (b == null && bv == null) {
            return subQuery();
        }
        RandomTable s = b != null && (bv == null || r.nextBoolean()) ? b : bv;
        String col = s == b ? "k" : "v";
        String agg = switch (r.nextInt(3)) {
            case 0 -> "COUNT(*)";
            case 1 -> "MAX(a2.k)";
            default -> "MIN(a2." + col + ")";
        };
        String sql = switch (r.nextInt(4)) {
            case 0 -> "SELECT a1.k, (SELECT " + agg + " FROM " + s.name() + " a2 WHERE a2." + col + " = a1.v) AS c FROM "
                    + a.name() + " a1" + p.where(a, "a1.", false);
            case 1 -> "SELECT a1.k, a1.v FROM " + a.name() + " a1 WHERE " + (r.nextBoolean() ? "" : "NOT ")
                    + "EXISTS (SELECT 1 FROM " + s.name() + " a2 WHERE a2." + col + " = a1.v)";
            case 2 -> "SELECT a1.k FROM " + a.name() + " a1 WHERE a1.v " + (r.nextBoolean() ? "IN" : "NOT IN")
                    + " (SELECT a2." + col + " FROM " + s.name() + " a2 WHERE a2." + col + " <> a1.v)";
            default -> "SELECT a1.k, a1.v FROM " + a.name() + " a1 WHERE a1.v " + (r.nextBoolean() ? ">" : "<=")
                    + " (SELECT MIN(a2." + col + ") FROM " + s.name() + " a2 WHERE a2." + col + " <> a1.v)";
        };
        return Case.query(Form.CORRELATED_VALUE, sql, false);
    }

    private Case emptyOrTrue() {
        RandomTable a = table();
        if (r.nextBoolean()) {
            // a correlated scalar sub-query beside an uncorrelated EXISTS, mostly over an empty table
            RandomTable e = tables.stream().filter(x -> x.rows().isEmpty()).findAny().orElse(p.table());
            String exists = (r.nextBoolean() ? "" : "NOT ") + "EXISTS (SELECT 1 FROM " + e.name() + " e"
                    + (r.nextBoolean() ? " WHERE " + p.falsePredicate("e.") : r.nextBoolean() ? " WHERE "
                    + p.truePredicate("e.") : "") + ")";
            return Case.query(Form.EMPTY_OR_TRUE_SUBQUERY, "SELECT a1.k, (SELECT COUNT(*) FROM " + a.name()
                    + " a2 WHERE a2.k = a1.k) AS c FROM " + a.name() + " a1 WHERE " + exists, false);
        }
        String where = p.subQueryPredicate(a, "");
        if (r.nextInt(3) == 0) {
            where = "(" + where + (r.nextBoolean() ? " OR " : " AND ")
                    + p.subQueryPredicate(a, "") + ")";
        }
        boolean order = r.nextBoolean();
        return Case.query(Form.EMPTY_OR_TRUE_SUBQUERY, "SELECT k, v FROM " + a.name() + " WHERE " + where
                + (order ? " ORDER BY k" + desc() + limit() : ""), order);
    }

    private Case orderLimit() {
        RandomTable a = table();
        RandomTable b = p.keyedLike(a.keyType());
        String fetch = r.nextBoolean() ? " LIMIT " + (1 + r.nextInt(4)) : " FETCH FIRST " + (1 + r.nextInt(4)) + " ROWS ONLY";
        String desc = r.nextInt(4) == 0 ? "" : desc();
        String sql = switch (r.nextInt(5)) {
            case 0 -> "SELECT k FROM " + a.name() + " WHERE k " + (r.nextBoolean() ? "NOT IN" : "IN") + " (SELECT k FROM "
                    + b.name() + p.where(b, "", false) + ") ORDER BY k" + desc + fetch;
            case 1 -> "SELECT k, v FROM " + a.name() + " a WHERE " + (r.nextBoolean() ? "NOT " : "") + "EXISTS (SELECT 1 FROM "
                    + b.name() + " b WHERE b.k = a.k) ORDER BY k" + desc + fetch;
            case 2 -> "SELECT a.k, b.v FROM " + a.name() + " a JOIN " + b.name() + " b ON a.k = b.k"
                    + p.where(a, "a.", false) + " ORDER BY a.k" + desc + fetch;
            case 3 -> "SELECT a.k, (SELECT COUNT(*) FROM " + b.name() + " b WHERE b.k < a.k) AS c FROM " + a.name()
                    + " a ORDER BY a.k" + desc + fetch;
            default -> "SELECT x FROM (SELECT a.k AS x FROM " + a.name() + " a LEFT JOIN " + b.name()
                    + " b ON a.k = b.k WHERE b.k IS NULL) d ORDER BY x" + desc + fetch;
        };
        return Case.query(Form.ORDER_LIMIT, sql, true);
    }

    private Case setOperation() {
        RandomTable a = table();
        boolean onKey = r.nextBoolean();
        ColumnType type = onKey ? a.keyType() : a.valueType();
        String first = onKey ? "k" : "v";
        if (type.numeric() && r.nextInt(3) == 0) {
            first = first + " * " + (2 + r.nextInt(7));
        }
        RandomTable b = r.nextBoolean() && p.keyedLike(type) != null ? p.keyedLike(type) : p.valuedLike(type);
        if (b == null) {
            b = p.keyedLike(type);
        }
        String second = b.keyType() == type ? "k" : b.valueType() == type ? "v"
                : b.keyType().family() == type.family() ? "k" : "v";
        String op = switch (r.nextInt(5)) {
            case 0 -> " UNION ";
            case 1 -> " UNION ALL ";
            case 2, 3 -> " EXCEPT ";
            default -> " INTERSECT ";
        };
        boolean twoColumns = r.nextInt(4) == 0;
        String sql;
        if (twoColumns) { // the same column twice: names repeat, ordinals do not
            String extra = type.numeric() ? p.literal(type) : first;
            sql = "SELECT " + first + ", " + first + " FROM " + a.name() + p.where(a, "", false) + op + "SELECT " + second
                    + ", " + (r.nextBoolean() ? second : extra) + " FROM " + b.name() + p.where(b, "", false)
                    + " ORDER BY 1 " + nulls() + ", 2 " + nulls();
        } else {
            sql = "SELECT " + first + " FROM " + a.name() + p.where(a, "", false) + op + "SELECT " + second + " FROM "
                    + b.name() + p.where(b, "", false) + " ORDER BY 1" + (r.nextBoolean() ? " DESC" : "") + " " + nulls();
        }
        return Case.query(Form.SET_OPERATION, sql + limit(), true);
    }

    private Case cte() {
        RandomTable t = table();
        String c1 = t.keyType() == ColumnType.VARCHAR && r.nextBoolean() ? "TRIM(k)" : "k";
        String c2 = t.valueType() == ColumnType.VARCHAR && r.nextBoolean() ? "TRIM(v)" : "v";
        String with = "WITH d0 AS (SELECT " + c1 + " AS c1, " + c2 + " AS c2 FROM " + t.name() + p.where(t, "", false)
                + ") ";
        String sql = switch (r.nextInt(4)) {
            case 0 -> with + "SELECT c1, c2 FROM d0 WHERE " + p.comparison("c2", t.valueType());
            case 1 -> with + "SELECT COUNT(*), MIN(c1), MAX(c1) FROM d0";
            case 2 -> {
                String e = t.valueType() == ColumnType.VARCHAR
                        ? "CASE c1 WHEN " + t.keyType().randomLiteral(r) + " THEN c2 ELSE TRIM(c2) END"
                        : t.valueType().numeric() ? "CASE WHEN c2 IS NULL THEN " + p.literal(t.valueType()) + " ELSE c2 END"
                        : "COALESCE(c2, " + t.valueType().randomLiteral(r) + ")";
                yield with + "SELECT c1, " + e + " FROM d0";
            }
            default -> {
                RandomTable b = p.keyedLike(t.keyType());
                yield with + "SELECT b.k, d0.c2 FROM " + b.name() + " b JOIN d0 ON d0.c1 = b.k";
            }
        };
        return Case.query(Form.CTE, sql, false);
    }

    private Case derived() {
        RandomTable t = table();
        return Case.query(Form.DERIVED, "SELECT COUNT(*), MIN(x), MAX(x) FROM (SELECT k AS x FROM " + t.name()
                + p.where(t, "", false) + " ORDER BY k" + (r.nextBoolean() ? desc() : "") + " LIMIT " + (1 + r.nextInt(8))
                + ") s", true);
    }

    // ---- writes

    /** A key the table does not hold and that {@code taken} does not name (null if none was found). */
    private Object freshKey(RandomTable t, Set<String> taken) {
        for (int i = 0; i < 20; i++) {
            Object k = t.keyType().value(r);
            if (!t.hasKey(k) && taken.add(RandomTable.keyText(k))) {
                return k;
            }
        }
        return null;
    }

    private Object existingKey(RandomTable t, Set<String> taken) {
        if (t.rows().isEmpty()) {
            return null;
        }
        Object k = t.rows().get(r.nextInt(t.rows().size()))[0];
        return taken.add(RandomTable.keyText(k)) ? k : null;
    }

    private String valueLiteral(RandomTable t) {
        return r.nextInt(3) == 0 ? "NULL" : t.valueType().randomLiteral(r);
    }

    private Case.Step insertValues(RandomTable t, Set<String> taken) {
        List<String> rows = new ArrayList<>();
        boolean valueFirst = r.nextBoolean();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            // now and then a key that exists: all three must refuse the statement and write none of it
            Object k = r.nextInt(12) == 0 ? existingKey(t, taken) : freshKey(t, taken);
            if (k == null) {
                continue;
            }
            String key = t.keyType().literal(k);
            String value = valueLiteral(t);
            rows.add("(" + (valueFirst ? value + ", " + key : key + ", " + value) + ")");
        }
        if (rows.isEmpty()) {
            rows.add(valueFirst ? "(NULL, " + t.keyType().randomLiteral(r) + ")" : "(" + t.keyType().randomLiteral(r) + ", NULL)");
        }
        return Case.Step.write("INSERT INTO " + t.name() + (valueFirst ? " (v, k)" : " (k, v)") + " VALUES "
                + String.join(", ", rows));
    }

    private Case insertSelect() {
        RandomTable a = table();
        List<RandomTable> sources = tables.stream().filter(b -> b.keyType() == a.keyType() && b.valueType() == a.valueType())
                .toList();
        RandomTable b = sources.get(r.nextInt(sources.size()));
        String sql = "INSERT INTO " + a.name() + " (k, v) SELECT k, v FROM " + b.name() + " WHERE k NOT IN (SELECT k FROM "
                + a.name() + ")" + (r.nextBoolean() ? " AND " + p.predicate(b, "", 1, r.nextBoolean()) : "");
        return Case.write(Form.INSERT_SELECT, Case.Step.write(sql), a.name());
    }

    /**
     * INSERT ... ON CONFLICT (k) DO UPDATE SET v = expr (or DO NOTHING) over rows new and old; H2 says the same
     * with MERGE, whose VALUES source casts each value to the column's type (as the ON CONFLICT form types it).
     * Half the time KegDB runs the MERGE form too. Update counts differ by database here and are not compared.
     */
    private Case.Step upsert(RandomTable t, Set<String> taken) {
        List<String[]> rows = new ArrayList<>();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            Object k = r.nextBoolean() ? existingKey(t, taken) : freshKey(t, taken);
            if (k != null) {
                rows.add(new String[] {t.keyType().literal(k), valueLiteral(t)});
            }
        }
        if (rows.isEmpty()) {
            rows.add(new String[] {t.keyType().randomLiteral(r), valueLiteral(t)});
            taken.add(rows.get(0)[0]);
        }
        String name = t.name();
        String set; // in KegDB's and SQLite's spelling: EXCLUDED.v is the proposed value, name.v the stored one
        ColumnType vt = t.valueType();
        int choice = r.nextInt(6);
        if (choice == 0) {
            set = null; // DO NOTHING
        } else if (vt.numeric()) {
            set = switch (choice) {
                case 1 -> "EXCLUDED.v * 10";
                case 2 -> name + ".v + EXCLUDED.v";
                case 3 -> "COALESCE(" + name + ".v, EXCLUDED.v)";
                case 4 -> "EXCLUDED.v - " + name + ".v";
                default -> "EXCLUDED.v";
            };
        } else if (vt == ColumnType.VARCHAR) {
            set = switch (choice) {
                case 1 -> "EXCLUDED.v || 'x'";
                case 2 -> name + ".v || EXCLUDED.v";
                case 3 -> "TRIM(EXCLUDED.v)";
                default -> "COALESCE(EXCLUDED.v, " + name + ".v)";
            };
        } else {
            set = choice % 2 == 0 ? "EXCLUDED.v" : "COALESCE(" + name + ".v, EXCLUDED.v)";
        }
        StringBuilder values = new StringBuilder();
        StringBuilder typed = new StringBuilder();
        for (String[] row : rows) {
            values.append(values.length() > 0 ? ", " : "").append('(').append(row[0]).append(", ").append(row[1]).append(')');
            typed.append(typed.length() > 0 ? ", " : "").append("(CAST(").append(row[0]).append(" AS ")
                    .append(t.keyType().sql()).append("), CAST(").append(row[1]).append(" AS ").append(vt.sql()).append("))");
        }
        String onConflict = "INSERT INTO " + name + " (k, v) VALUES " + values + " ON CONFLICT (k) DO "
                + (set == null ? "NOTHING" : "UPDATE SET v = " + set);
        String merge = "MERGE INTO " + name + " USING (VALUES " + typed + ") AS x (k, v) ON " + name + ".k = x.k"
                + (set == null ? "" : " WHEN MATCHED THEN UPDATE SET v = " + set.replace("EXCLUDED.", "x."))
                + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (x.k, x.v)";
        return new Case.Step(r.nextInt(3) == 0 ? merge : onConflict, merge, onConflict, false, false, false);
    }

    private Case.Step update(RandomTable t) {
        String name = t.name();
        String alias = name + ".";
        ColumnType vt = t.valueType();
        String set = switch (r.nextInt(7)) {
            case 0 -> "NULL";
            case 1 -> vt.randomLiteral(r);
            case 2 -> "COALESCE(v, " + vt.randomLiteral(r) + ")";
            case 3 -> "CASE WHEN " + p.predicate(t, alias, 1, false) + " THEN " + vt.randomLiteral(r) + " ELSE v END";
            case 4 -> t.keyType() == vt ? "k" : vt.numeric() ? "v * 10" : "COALESCE(v, " + vt.randomLiteral(r) + ")";
            case 5 -> {
                List<RandomTable> same = tables.stream().filter(b -> b.valueType() == vt && b.keyType().family()
                        == t.keyType().family()).toList();
                RandomTable b = same.get(r.nextInt(same.size()));
                String a = p.alias();
                yield "(SELECT MAX(" + a + ".v) FROM " + b.name() + " " + a + " WHERE " + a + ".k = " + alias + "k)";
            }
            default -> vt.numeric() ? "v + " + vt.randomLiteral(r) : vt == ColumnType.VARCHAR ? "TRIM(v) || 'y'" : "NULL";
        };
        String where = r.nextInt(8) == 0 ? "" : " WHERE " + p.predicate(t, alias, 2, true);
        return Case.Step.write("UPDATE " + name + " SET v = " + set + where);
    }

    private Case.Step delete(RandomTable t) {
        String where = r.nextInt(10) == 0 ? "" : " WHERE " + p.predicate(t, t.name() + ".", 2, true);
        return Case.Step.write("DELETE FROM " + t.name() + where);
    }

    private Case transaction() {
        RandomTable t = table();
        Set<String> taken = new HashSet<>();
        List<Case.Step> steps = new ArrayList<>();
        int n = 2 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            steps.add(switch (r.nextInt(5)) {
                case 0 -> insertValues(t, taken);
                case 1 -> upsert(t, taken);
                case 2 -> update(t);
                case 3 -> delete(t);
                default -> Case.Step.query("SELECT k, v FROM " + t.name() + p.where(t, "", false), false);
            });
        }
        steps.add(Case.Step.query("SELECT COUNT(*), COUNT(v) FROM " + t.name(), true));
        return new Case(Form.TRANSACTION, steps, r.nextBoolean() ? Case.End.COMMIT : Case.End.ROLLBACK,
                List.of(t.name()));
    }

    // ---- pieces

    private String desc() {
        return " DESC";
    }

    private String nulls() {
        return r.nextBoolean() ? "NULLS FIRST" : "NULLS LAST";
    }

    private String limit() {
        return switch (r.nextInt(4)) {
            case 0 -> " LIMIT " + r.nextInt(6);
            case 1 -> " LIMIT " + (1 + r.nextInt(6)) + " OFFSET " + r.nextInt(6);
            default -> "";
        };
    }
}
