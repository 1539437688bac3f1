package io.kegdb.sql.direct;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the standard MERGE (Hibernate, jOOQ's standard dialects) into statements KegDB runs, keeping the
 * order of the {@code ?} parameters:
 * <pre>
 * MERGE INTO t [[AS] a] USING source ON a.k = s.col
 *   WHEN MATCHED [AND cond] THEN UPDATE SET v = expr | DELETE
 *   WHEN NOT MATCHED [AND cond] THEN INSERT [(cols)] VALUES (...)
 * </pre>
 * where source is {@code (VALUES ...) [AS] s (cols)}, {@code (SELECT ...) [AS] s [(cols)]} or a table
 * {@code [[AS] s]}, and the clauses come in either order, one of each at most. An UPDATE (with or without an
 * INSERT) becomes an UPSERT of the source joined with the table (left-joined if there is an INSERT), an INSERT
 * alone an INSERT of the source rows whose key is absent, a DELETE a {@code DELETE ... WHERE k IN} the
 * matched keys. The expressions are computed in an inner query, in the order they were written (so that the
 * parameters keep theirs), and an outer one picks the matched or the not-matched ones; rows whose clause's
 * condition is not true are left out, which leaves them unchanged.
 */
public final class MergeRewrite extends RewriteParser {

    /** The inner query's columns. */
    private static final String OLD_KEY = quote("OLD$K");
    private static final String MATCHED_WHEN = quote("WHEN$M");
    private static final String SET_VALUE = quote("SET$V");
    private static final String NOT_MATCHED_WHEN = quote("WHEN$N");
    private static final String INSERT_KEY = quote("INS$K");
    private static final String INSERT_VALUE = quote("INS$V");
    private static final String ROWS = quote("MERGE$ROWS");

    private static final String SUPPORTED_ON = "ON a.key = s.column (or s.column = a.key)";

    private TableDef def;
    private String tableText;
    private String targetAlias;
    /** The source as a FROM item, and (for a query) the WITH item that names it ahead of the rest. */
    private String sourceFrom;
    private String sourceWith;
    private String sourceQueryFrom;
    private String sourceAlias;
    private String sourceKeyColumn;

    private MergeRewrite(String sql, List<Piece> pieces) {
        super(sql, pieces);
    }

    /** The rewritten statement if {@code sql} is a MERGE into a KegDB table, else null. */
    public static String rewrite(String sql, Catalog.Snapshot catalog, String schema) throws SqlError {
        if (!mentions(sql, "MERGE")) {
            return null; // the common case, without scanning: this runs for every statement
        }
        List<Piece> pieces = scan(sql);
        if (pieces == null || pieces.size() < 2 || !pieces.get(0).is("MERGE") || !pieces.get(1).is("INTO")) {
            return null;
        }
        return new MergeRewrite(sql, pieces).rewrite(catalog, schema);
    }

    /** A WHEN clause: its condition (null if none) and, after it, the action's pieces. */
    private record Clause(boolean matched, int conditionFrom, int conditionTo, Action action) {
        String condition(MergeRewrite m) {
            return conditionFrom < 0 ? null : m.text(conditionFrom, conditionTo);
        }
    }

    private sealed interface Action permits Update, Delete, Insert {
    }

    private record Update(String expr) implements Action {
    }

    private record Delete() implements Action {
    }

    /** The INSERT's items, in the order written, each with whether it is the key's. */
    private record Insert(List<String> items, List<Boolean> keys) implements Action {
    }

    private String rewrite(Catalog.Snapshot catalog, String schema) throws SqlError {
        pos = 2;
        TableRef table = table(catalog, schema);
        if (table == null) {
            return null; // Calcite reports the unknown table
        }
        def = table.def();
        tableText = table.text();
        targetAlias = quote(pieces.get(pos - 1).name());
        String alias = alias("USING");
        if (alias != null) {
            targetAlias = alias;
        }
        expect("USING");
        source(catalog, schema);
        expect("ON");
        on();
        List<Clause> clauses = new ArrayList<>();
        while (!atEnd()) {
            clauses.add(clause());
        }
        return statement(clauses);
    }

    /** {@code [AS] name} at the cursor, quoted, unless the next word is {@code stop}; null if there is none. */
    private String alias(String stop) throws SqlError {
        boolean as = accept("AS");
        Piece p = peek();
        if (!as && (!(p.word() || p.quoted()) || p.is(stop))) {
            return null;
        }
        if (!(p.word() || p.quoted())) {
            throw syntax("a name");
        }
        pos++;
        return quote(p.name());
    }

    private void source(Catalog.Snapshot catalog, String schema) throws SqlError {
        if (!peek().isSymbol('(')) {
            int start = pos;
            TableRef source = table(catalog, schema);
            if (source == null) {
                // Calcite reports the unknown table when it plans the rewritten statement.
                sourceFrom = text(start, pos);
            } else {
                sourceFrom = source.text();
            }
            sourceAlias = quote(pieces.get(pos - 1).name());
            String alias = alias("ON");
            if (alias != null) {
                sourceAlias = alias;
            }
            sourceFrom += " AS " + sourceAlias;
            return;
        }
        int open = pos;
        int close = closing(open);
        if (close < 0) {
            throw syntax("')'");
        }
        boolean values = pieces.get(open + 1).is("VALUES");
        if (!values && !pieces.get(open + 1).is("SELECT") && !pieces.get(open + 1).is("WITH")) {
            pos = open + 1;
            throw syntax("VALUES or SELECT");
        }
        pos = close + 1;
        sourceAlias = alias("ON");
        if (sourceAlias == null) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "the source of a MERGE needs a name: USING (...) AS s");
        }
        List<String> columns = new ArrayList<>();
        int columnsStart = pos;
        if (accept('(')) {
            do {
                columns.add(next().name());
            } while (accept(','));
            expect(")");
        }
        String columnList = columns.isEmpty() ? "" : " " + text(columnsStart, pos);
        if (values && columns.isEmpty()) {
            throw new SqlError(SqlState.SYNTAX_ERROR,
                    "a VALUES source of a MERGE needs column names: USING (VALUES ...) AS s (c1, c2)");
        }
        int afterSource = pos;
        // The key column of the source and the columns copied straight into the table type the VALUES items.
        String query = values ? typedValues(open + 2, close, columns, afterSource) : text(open + 1, close);
        pos = afterSource;
        sourceQueryFrom = "(" + query + ") AS " + sourceAlias + columnList;
        sourceWith = "WITH " + sourceAlias + columnList + " AS (" + query + ") ";
        sourceFrom = sourceAlias;
    }

    /**
     * The VALUES rows with each item of a column whose type is known cast to it, so that a {@code ?} has a
     * type and strings of different lengths are not padded to the longest: the column the ON equates with
     * the key, and a column an INSERT or UPDATE copies as it is.
     */
    private String typedValues(int from, int to, List<String> columns, int afterSource) throws SqlError {
        List<List<String>> rows = rowItems(from, to);
        String[] types = new String[columns.size()];
        pos = afterSource;
        // Looks ahead at the rest of the statement (the cursor is put back by the caller).
        List<String[]> copies = copiedColumns();
        for (String[] copy : copies) {
            int i = columns.indexOf(copy[0]);
            if (i >= 0 && types[i] == null) {
                types[i] = copy[1];
            }
        }
        StringBuilder b = new StringBuilder("VALUES ");
        for (int r = 0; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            if (row.size() != columns.size()) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "row " + (r + 1) + " of the MERGE source has "
                        + row.size() + " values for " + columns.size() + " columns");
            }
            b.append(r == 0 ? "(" : ", (");
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : ", ");
                if (types[i] == null) {
                    b.append(row.get(i));
                } else {
                    b.append("CAST(").append(row.get(i)).append(" AS ").append(types[i]).append(')');
                }
            }
            b.append(')');
        }
        return b.toString();
    }

    /**
     * Source columns (unqualified name, type) whose type the rest of the statement fixes: {@code s.col} as one
     * side of the ON, as a whole INSERT item or as a whole SET expression.
     */
    private List<String[]> copiedColumns() throws SqlError {
        List<String[]> out = new ArrayList<>();
        int save = pos;
        expect("ON");
        on();
        while (!atEnd()) {
            Clause c = clause();
            if (c.action() instanceof Update u) {
                addCopy(out, u.expr(), castType(def, false));
            } else if (c.action() instanceof Insert in) {
                for (int i = 0; i < in.items().size(); i++) {
                    addCopy(out, in.items().get(i), castType(def, in.keys().get(i)));
                }
            }
        }
        out.add(0, new String[] {sourceKeyColumn, castType(def, true)});
        pos = save;
        return out;
    }

    private void addCopy(List<String[]> out, String expr, String type) {
        List<Piece> p = scan(expr);
        if (p != null && p.size() == 3 && p.get(1).isSymbol('.') && quote(p.get(0).name()).equals(sourceAlias)) {
            out.add(new String[] {p.get(2).name(), type});
        }
    }

    /** {@code [(] a.k = s.col [)]}: records the source column equated with the key. */
    private void on() throws SqlError {
        int parens = 0;
        while (accept('(')) {
            parens++;
        }
        int start = pos;
        String[] left = reference();
        boolean equals = accept('=');
        String[] right = equals ? reference() : null;
        for (int i = 0; i < parens && right != null; i++) {
            if (!accept(')')) {
                right = null;
            }
        }
        if (right != null && isTargetKey(left) && isSource(right)) {
            sourceKeyColumn = right[1];
        } else if (right != null && isTargetKey(right) && isSource(left)) {
            sourceKeyColumn = left[1];
        } else {
            throw new SqlError(SqlState.SYNTAX_ERROR, "MERGE INTO " + def.qualifiedName() + " supports only "
                    + SUPPORTED_ON + ", which names the key column " + def.keyColumn() + "; found ON "
                    + onText(start));
        }
        if (!peek().is("WHEN")) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "MERGE INTO " + def.qualifiedName() + " supports only "
                    + SUPPORTED_ON + " and no further condition; found ON " + onText(start));
        }
    }

    private String onText(int start) {
        int end = start;
        while (end < pieces.size() && !pieces.get(end).is("WHEN")) {
            end++;
        }
        return end == start ? "nothing" : text(start, end);
    }

    /** {@code [qualifier.]name} at the cursor as {quoted qualifier or null, name}, or null. */
    private String[] reference() {
        Piece first = peek();
        if (!(first.word() || first.quoted())) {
            return null;
        }
        pos++;
        if (peek().isSymbol('.') && pos + 1 < pieces.size()) {
            pos++;
            Piece second = pieces.get(pos++);
            return new String[] {quote(first.name()), second.name()};
        }
        return new String[] {null, first.name()};
    }

    private boolean isTargetKey(String[] ref) {
        return ref != null && ref[1].equals(def.keyColumn()) && (ref[0] == null || ref[0].equals(targetAlias));
    }

    private boolean isSource(String[] ref) {
        return ref != null && ref[0] != null && ref[0].equals(sourceAlias) && !ref[0].equals(targetAlias);
    }

    private Clause clause() throws SqlError {
        expect("WHEN");
        boolean matched = !accept("NOT");
        expect("MATCHED");
        int conditionFrom = -1;
        int conditionTo = -1;
        if (accept("AND")) {
            conditionFrom = pos;
            conditionTo = expressionEnd("THEN");
            if (conditionTo == conditionFrom) {
                throw syntax("a condition");
            }
            pos = conditionTo;
        }
        expect("THEN");
        Action action;
        if (matched && accept("DELETE")) {
            action = new Delete();
        } else if (matched) {
            action = update();
        } else {
            action = insert();
        }
        return new Clause(matched, conditionFrom, conditionTo, action);
    }

    private Update update() throws SqlError {
        if (!accept("UPDATE")) {
            throw syntax("UPDATE or DELETE");
        }
        expect("SET");
        String[] column = reference();
        if (column == null || column[0] != null && !column[0].equals(targetAlias)) {
            throw syntax("a column of " + def.qualifiedName());
        }
        if (column[1].equals(def.keyColumn())) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "a MERGE cannot change the key column " + column[1]);
        }
        if (!column[1].equals(def.valueColumn())) {
            throw new SqlError(SqlState.COLUMN_NOT_FOUND, "column " + column[1] + " is not a column of "
                    + def.qualifiedName());
        }
        expect("=");
        int start = pos;
        int end = expressionEnd("WHEN");
        if (expressionEnd(start, end, ",") < end) {
            throw new SqlError(SqlState.SYNTAX_ERROR,
                    "a MERGE into a key/value table sets only its value column " + def.valueColumn());
        }
        if (end == start) {
            throw syntax("an expression");
        }
        pos = end;
        return new Update(text(start, end));
    }

    private Insert insert() throws SqlError {
        expect("INSERT");
        List<String> columns = insertColumns(def);
        for (String column : columns) {
            if (!column.equals(def.keyColumn()) && !column.equals(def.valueColumn())) {
                throw new SqlError(SqlState.COLUMN_NOT_FOUND, "column " + column + " is not a column of "
                        + def.qualifiedName());
            }
        }
        if (!columns.contains(def.keyColumn())) {
            throw new SqlError(SqlState.NOT_NULL_VIOLATION, "the INSERT of a MERGE into " + def.qualifiedName()
                    + " must give the key column " + def.keyColumn());
        }
        expect("VALUES");
        if (!peek().isSymbol('(')) {
            throw syntax("'('");
        }
        int close = closing(pos);
        if (close < 0) {
            throw syntax("')'");
        }
        List<String> items = rowItems(pos, close + 1).get(0);
        if (items.size() != columns.size()) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "the INSERT of a MERGE has " + items.size()
                    + " values for " + columns.size() + " columns");
        }
        pos = close + 1;
        List<Boolean> keys = new ArrayList<>();
        for (String column : columns) {
            keys.add(column.equals(def.keyColumn()));
        }
        return new Insert(items, keys);
    }

    /** Where the expression at the cursor ends: at the statement's end or a top-level {@code stop} word. */
    private int expressionEnd(String stop) {
        return expressionEnd(pos, pieces.size(), stop);
    }

    /** The first top-level {@code stop} in [from, to) (outside parentheses and CASE ... END), else {@code to}. */
    private int expressionEnd(int from, int to, String stop) {
        int depth = 0;
        for (int i = from; i < to; i++) {
            Piece p = pieces.get(i);
            boolean isStop = stop.length() == 1 ? p.isSymbol(stop.charAt(0)) : p.is(stop);
            if (depth == 0 && (isStop || p.isSymbol(';'))) {
                return i;
            }
            depth += p.isSymbol('(') || p.is("CASE") ? 1 : p.isSymbol(')') || p.is("END") ? -1 : 0;
        }
        return to;
    }

    private String statement(List<Clause> clauses) throws SqlError {
        Clause matched = null;
        Clause notMatched = null;
        for (Clause c : clauses) {
            if (c.matched() ? matched != null : notMatched != null) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "a MERGE into " + def.qualifiedName()
                        + " takes at most one WHEN " + (c.matched() ? "" : "NOT ") + "MATCHED clause");
            }
            if (c.matched()) {
                matched = c;
            } else {
                notMatched = c;
            }
        }
        String join = quote(def.keyColumn());
        String on = " ON " + targetAlias + "." + join + " = " + sourceAlias + "." + quote(sourceKeyColumn);
        if (matched != null && matched.action() instanceof Delete) {
            if (notMatched != null) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "a MERGE into " + def.qualifiedName()
                        + " cannot both DELETE matched rows and INSERT others; run a DELETE and an INSERT");
            }
            String condition = matched.condition(this);
            String from = sourceQueryFrom != null ? sourceQueryFrom : sourceFrom;
            return "DELETE FROM " + tableText + " WHERE " + join + " IN (SELECT " + targetAlias + "." + join
                    + " FROM " + from + " INNER JOIN " + tableText + " AS " + targetAlias + on
                    + (condition == null ? "" : " WHERE " + condition) + ")";
        }
        StringBuilder inner = new StringBuilder("SELECT ").append(targetAlias).append('.').append(join)
                .append(" AS ").append(OLD_KEY);
        for (Clause c : clauses) {
            String condition = c.condition(this);
            if (condition != null) {
                inner.append(", (").append(condition).append(") AS ")
                        .append(c.matched() ? MATCHED_WHEN : NOT_MATCHED_WHEN);
            }
            if (c.action() instanceof Update u) {
                inner.append(", ").append(cast(u.expr(), false)).append(" AS ").append(SET_VALUE);
            } else if (c.action() instanceof Insert in) {
                for (int i = 0; i < in.items().size(); i++) {
                    boolean key = in.keys().get(i);
                    inner.append(", ").append(cast(in.items().get(i), key)).append(" AS ")
                            .append(key ? INSERT_KEY : INSERT_VALUE);
                }
                if (!in.keys().contains(false)) {
                    inner.append(", ").append(cast("NULL", false)).append(" AS ").append(INSERT_VALUE);
                }
            }
        }
        inner.append(" FROM ").append(sourceFrom).append(matched == null || notMatched != null ? " LEFT" : " INNER")
                .append(" JOIN ").append(tableText).append(" AS ").append(targetAlias).append(on);
        String key;
        String value;
        List<String> keep = new ArrayList<>();
        String isNew = OLD_KEY + " IS NULL";
        if (matched == null) {
            key = INSERT_KEY;
            value = INSERT_VALUE;
            keep.add(isNew);
            if (notMatched.condition(this) != null) {
                keep.add(NOT_MATCHED_WHEN);
            }
        } else if (notMatched == null) {
            key = OLD_KEY;
            value = SET_VALUE;
            if (matched.condition(this) != null) {
                keep.add(MATCHED_WHEN);
            }
        } else {
            key = "CASE WHEN " + isNew + " THEN " + INSERT_KEY + " ELSE " + OLD_KEY + " END";
            value = "CASE WHEN " + isNew + " THEN " + INSERT_VALUE + " ELSE " + SET_VALUE + " END";
            if (matched.condition(this) != null || notMatched.condition(this) != null) {
                keep.add("CASE WHEN " + isNew + " THEN "
                        + (notMatched.condition(this) != null ? NOT_MATCHED_WHEN : "TRUE") + " ELSE "
                        + (matched.condition(this) != null ? MATCHED_WHEN : "TRUE") + " END");
            }
        }
        // An INSERT alone keeps its duplicate check (23505 for a source that gives a new key twice).
        // Cast to the columns' own types: a source that differs would be cast again by Calcite, which then
        // trips over the nullability its simplification of the CASEs infers. Not to their lengths, which
        // would cut a string: the write checks them (22001).
        return (matched == null ? "INSERT" : "UPSERT") + " INTO " + tableText + " (" + join + ", "
                + quote(def.valueColumn()) + ") " + (sourceWith == null ? "" : sourceWith) + "SELECT CAST(" + key
                + " AS " + castType(def, true) + "), CAST(" + value + " AS " + castType(def, false) + ") FROM ("
                + inner + ") AS " + ROWS
                + (keep.isEmpty() ? "" : " WHERE " + String.join(" AND ", keep));
    }

    private String cast(String expr, boolean key) {
        return "CAST((" + expr + ") AS " + castType(def, key) + ")";
    }
}
