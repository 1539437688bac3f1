package io.kegdb.sql.direct;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the upserts data-access libraries send into statements KegDB runs, keeping the order of the
 * {@code ?} parameters:
 * <pre>
 * INSERT INTO t [(cols)] VALUES rows ON CONFLICT [(k)] DO NOTHING
 * INSERT INTO t [(cols)] VALUES rows ON CONFLICT [(k)] DO UPDATE SET v = expr     (PostgreSQL; EXCLUDED.col)
 * INSERT INTO t [(cols)] VALUES rows ON DUPLICATE KEY UPDATE v = expr             (MySQL, jOOQ; VALUES(col))
 * </pre>
 * {@code SET v = EXCLUDED.v} (or {@code VALUES(v)}) becomes {@code UPSERT INTO t [(cols)] VALUES rows}. Any other
 * update becomes an UPSERT of a query that joins the new rows with the table, taking the new value where
 * the key is absent and {@code expr} where it is present; DO NOTHING an INSERT of the rows whose key is absent.
 * In {@code expr}, {@code t.col} and a bare column name are the stored row, {@code EXCLUDED.col} and
 * {@code VALUES(col)} the proposed one.
 */
public final class UpsertRewrite extends RewriteParser {

    /** The proposed row, as the rewritten statements name it. */
    private static final String NEW = "EXCLUDED";

    private UpsertRewrite(String sql, List<Piece> pieces) {
        super(sql, pieces);
    }

    /** The rewritten statement if {@code sql} is one of the upsert forms, else null. */
    public static String rewrite(String sql, Catalog.Snapshot catalog, String schema) throws SqlError {
        if (!mentions(sql, "CONFLICT") && !mentions(sql, "DUPLICATE")) {
            return null; // the common case, without scanning: this runs for every statement
        }
        List<Piece> pieces = scan(sql);
        if (pieces == null || pieces.size() < 6 || !pieces.get(0).is("INSERT")) {
            return null;
        }
        int clause = clauseStart(pieces);
        return clause < 0 ? null : new UpsertRewrite(sql, pieces).rewrite(clause, catalog, schema);
    }

    /** Index of the top-level {@code ON CONFLICT} or {@code ON DUPLICATE KEY UPDATE}, or -1. */
    private static int clauseStart(List<Piece> pieces) {
        int depth = 0;
        for (int i = 0; i + 1 < pieces.size(); i++) {
            Piece p = pieces.get(i);
            depth += p.isSymbol('(') ? 1 : p.isSymbol(')') ? -1 : 0;
            if (depth == 0 && p.is("ON") && (pieces.get(i + 1).is("CONFLICT") || pieces.get(i + 1).is("DUPLICATE"))) {
                return i;
            }
        }
        return -1;
    }

    private String rewrite(int clause, Catalog.Snapshot catalog, String schema) throws SqlError {
        pos = 1;
        expect("INTO");
        TableRef table = table(catalog, schema);
        if (table == null) {
            return null; // Calcite reports the unknown table
        }
        TableDef def = table.def();
        String tableText = table.text();
        List<String> columns = insertColumns(def);
        if (!columns.contains(def.keyColumn())) {
            throw new SqlError(SqlState.NOT_NULL_VIOLATION, "an upsert into " + def.qualifiedName()
                    + " must give the key column " + def.keyColumn());
        }
        int insertEnd = pieces.get(pos - 1).end();
        expect("VALUES");
        String rows = text(pos, clause);
        List<List<String>> rowItems = rowItems(pos, clause);
        pos = clause + 1;
        String assignment;
        if (accept("CONFLICT")) {
            if (peek().isSymbol('(')) {
                pos++;
                String target = next().name();
                expect(")");
                if (!target.equals(def.keyColumn())) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "ON CONFLICT (" + target + "): the only unique"
                            + " column of " + def.qualifiedName() + " is its key " + def.keyColumn());
                }
            }
            expect("DO");
            if (accept("NOTHING")) {
                expectEnd();
                return insertAbsent(def, tableText, columns, rowItems);
            }
            expect("UPDATE");
            expect("SET");
        } else {
            expect("DUPLICATE");
            expect("KEY");
            expect("UPDATE");
        }
        String column = setColumn(def);
        if (column.equals(def.keyColumn())) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "an upsert cannot change the key column " + column);
        }
        if (!column.equals(def.valueColumn())) {
            throw new SqlError(SqlState.COLUMN_NOT_FOUND, "column " + column + " is not a column of "
                    + def.qualifiedName());
        }
        expect("=");
        int exprStart = pos;
        int depth = 0;
        while (!atEnd()) {
            Piece p = peek();
            if (depth == 0 && p.isSymbol(',')) {
                throw new SqlError(SqlState.SYNTAX_ERROR,
                        "an upsert into a key/value table sets only its value column " + def.valueColumn());
            }
            depth += p.isSymbol('(') ? 1 : p.isSymbol(')') ? -1 : 0;
            pos++;
        }
        if (pos == exprStart) {
            throw syntax("an expression");
        }
        String expr = proposedReferences(exprStart, pos, def);
        assignment = expr.trim();
        String proposedValue = proposed(def.valueColumn());
        if (assignment.equals(proposedValue)) {
            return "UPSERT" + sql.substring(pieces.get(0).end(), insertEnd) + " VALUES " + rows;
        }
        String alias = quote(def.name());
        return "UPSERT INTO " + tableText + " (" + quote(def.keyColumn()) + ", " + quote(def.valueColumn()) + ") "
                + proposedRows(def, columns, rowItems) + " SELECT " + proposed(def.keyColumn())
                // Cast to the column's type (not its length: the write checks it) as MERGE does: an implicit
                // cast of a WITH query's NOT NULL column fails Calcite's own type check ("failed to preserve
                // datatypes").
                + ", CAST(CASE WHEN " + alias + "." + quote(def.keyColumn()) + " IS NULL THEN " + proposedValue
                + " ELSE (" + assignment + ") END AS " + castType(def, false) + ") FROM " + NEW + " LEFT JOIN "
                + tableText + " AS " + alias
                + " ON " + alias + "." + quote(def.keyColumn()) + " = " + proposed(def.keyColumn());
    }

    /** DO NOTHING: an INSERT of the proposed rows whose key is not in the table. */
    private String insertAbsent(TableDef def, String tableText, List<String> columns, List<List<String>> rowItems)
            throws SqlError {
        String alias = quote(def.name());
        String value = columns.contains(def.valueColumn()) ? proposed(def.valueColumn()) : "NULL";
        // The rows as a derived table (a WITH query here trips a Calcite type check); no parameter precedes them.
        return "INSERT INTO " + tableText + " (" + quote(def.keyColumn()) + ", " + quote(def.valueColumn()) + ")"
                + " SELECT " + proposed(def.keyColumn()) + ", " + value + " FROM ("
                + rowsQuery(def, columns, rowItems) + ") AS " + NEW + " (" + proposedColumns(columns) + ") LEFT JOIN " + tableText + " AS " + alias + " ON " + alias + "."
                + quote(def.keyColumn()) + " = " + proposed(def.keyColumn()) + " WHERE " + alias + "."
                + quote(def.keyColumn()) + " IS NULL";
    }

    /**
     * {@code WITH EXCLUDED (cols) AS (VALUES ...)}, each item cast to its column's type so that parameters
     * have one (lengths are left to the write, which fails with 22001 rather than truncating). Written first
     * so that the rows' parameters keep their place before the update's.
     */
    private String proposedRows(TableDef def, List<String> columns, List<List<String>> rowItems) throws SqlError {
        return "WITH " + NEW + " (" + proposedColumns(columns) + ") AS (" + rowsQuery(def, columns, rowItems) + ")";
    }

    private static String proposedColumns(List<String> columns) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(proposedColumn(columns.get(i)));
        }
        return b.toString();
    }

    /** {@code VALUES (...), ...} with each item cast to its column's type. */
    private String rowsQuery(TableDef def, List<String> columns, List<List<String>> rowItems) throws SqlError {
        StringBuilder b = new StringBuilder("VALUES ");
        for (int r = 0; r < rowItems.size(); r++) {
            List<String> row = rowItems.get(r);
            if (row.size() != columns.size()) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "row " + (r + 1) + " of the upsert has " + row.size()
                        + " values for " + columns.size() + " columns");
            }
            b.append(r == 0 ? "(" : ", (");
            for (int i = 0; i < row.size(); i++) {
                boolean key = columns.get(i).equals(def.keyColumn());
                if (!key && !columns.get(i).equals(def.valueColumn())) {
                    throw new SqlError(SqlState.COLUMN_NOT_FOUND, "column " + columns.get(i)
                            + " is not a column of " + def.qualifiedName());
                }
                String typeName = castType(def, key);
                b.append(i == 0 ? "" : ", ").append("CAST(").append(row.get(i)).append(" AS ").append(typeName)
                        .append(')');
            }
            b.append(')');
        }
        return b.toString();
    }

    /** The text of pieces [from, to) with {@code EXCLUDED.col} and {@code VALUES(col)} naming the proposed row. */
    private String proposedReferences(int from, int to, TableDef def) {
        StringBuilder b = new StringBuilder();
        int copied = pieces.get(from).start();
        for (int i = from; i < to; i++) {
            Piece p = pieces.get(i);
            int end = -1;
            String column = null;
            if (p.is("EXCLUDED") && i + 2 < to && pieces.get(i + 1).isSymbol('.')) {
                column = pieces.get(i + 2).name();
                end = i + 2;
            } else if (p.is("VALUES") && i + 3 < to && pieces.get(i + 1).isSymbol('(')
                    && pieces.get(i + 3).isSymbol(')')) {
                column = pieces.get(i + 2).name();
                end = i + 3;
            }
            if (column != null) {
                b.append(sql, copied, p.start()).append(proposed(column));
                copied = pieces.get(end).end();
                i = end;
            }
        }
        return b.append(sql, copied, pieces.get(to - 1).end()).toString();
    }

    /**
     * The proposed row's column {@code column}. Its columns are renamed so that a bare column name in the
     * update is the stored row's (as MySQL reads it) rather than ambiguous.
     */
    private static String proposed(String column) {
        return NEW + "." + proposedColumn(column);
    }

    private static String proposedColumn(String column) {
        return quote(column + "$NEW");
    }

    /**
     * The column an update sets: {@code v}, or qualified by the target table as jOOQ writes it
     * ({@code "BOOKS"."TITLE"}, {@code PUBLIC.BOOKS.TITLE}); a qualifier naming another table is 42S22.
     */
    private String setColumn(TableDef def) throws SqlError {
        List<String> names = new ArrayList<>();
        names.add(next().name());
        while (peek().isSymbol('.')) {
            pos++;
            names.add(next().name());
        }
        String column = names.get(names.size() - 1);
        List<String> qualifier = names.subList(0, names.size() - 1);
        boolean target = qualifier.isEmpty() || qualifier.equals(List.of(def.name()))
                || qualifier.equals(List.of(def.schema(), def.name()));
        if (!target) {
            throw new SqlError(SqlState.COLUMN_NOT_FOUND, "column " + String.join(".", names)
                    + " is not a column of " + def.qualifiedName());
        }
        return column;
    }
}
