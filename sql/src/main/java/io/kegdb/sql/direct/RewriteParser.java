package io.kegdb.sql.direct;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A cursor over the pieces of a statement, for the rewrites that turn the upserts libraries send into
 * statements KegDB runs: they copy the statement's own text (expressions, parameters) into the new one, so
 * each piece keeps where it starts and ends.
 */
abstract class RewriteParser {

    /** A word, quoted name, string, number or symbol of the statement, with where it starts and ends. */
    record Piece(String text, boolean word, boolean quoted, int start, int end) {
        boolean is(String w) {
            return word && text.equalsIgnoreCase(w);
        }

        boolean isSymbol(char c) {
            return !word && !quoted && text.length() == 1 && text.charAt(0) == c;
        }

        /** The identifier it names: upper-cased unless quoted. */
        String name() {
            return quoted ? text : text.toUpperCase(Locale.ROOT);
        }
    }

    /** A table the statement names, with the text that named it. */
    record TableRef(TableDef def, String text) {
    }

    protected final String sql;
    protected final List<Piece> pieces;
    protected int pos;

    RewriteParser(String sql, List<Piece> pieces) {
        this.sql = sql;
        this.pieces = pieces;
    }

    /**
     * Whether {@code word} (upper-case ASCII) occurs anywhere in {@code sql}, ignoring case: the cheap test
     * every statement passes before a rewrite parses it, so it compares the first letter before the rest.
     */
    static boolean mentions(String sql, String word) {
        char upper = word.charAt(0);
        char lower = Character.toLowerCase(upper);
        for (int i = 0; i + word.length() <= sql.length(); i++) {
            char c = sql.charAt(i);
            if ((c == upper || c == lower) && sql.regionMatches(true, i + 1, word, 1, word.length() - 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The table named at the cursor ({@code name} or {@code schema.name}), or null if there is no such table
     * (Calcite then reports it).
     */
    protected TableRef table(Catalog.Snapshot catalog, String schema) throws SqlError {
        int start = pos;
        String tableSchema = schema;
        String tableName = next().name();
        if (peek().isSymbol('.')) {
            pos++;
            tableSchema = tableName;
            tableName = next().name();
        }
        TableDef def = catalog.find(tableSchema, tableName);
        return def == null ? null : new TableRef(def, text(start, pos));
    }

    /** The statement's text of pieces [from, to). */
    /** An insert's column list at the cursor, {@code (c, ...)}, or the table's key and value when there is none. */
    protected List<String> insertColumns(TableDef def) throws SqlError {
        List<String> columns = new ArrayList<>();
        if (accept('(')) {
            do {
                columns.add(next().name());
            } while (accept(','));
            expect(")");
        } else {
            columns.add(def.keyColumn());
            columns.add(def.valueColumn());
        }
        return columns;
    }

    protected String text(int from, int to) {
        return sql.substring(pieces.get(from).start(), pieces.get(to - 1).end());
    }

    /** The SQL type to cast a value of the key ({@code key}) or value column of {@code def} to. */
    protected static String castType(TableDef def, boolean key) {
        ColumnType type = key ? def.keyType() : def.valueType();
        // Lengths are left to the write, which fails with 22001 rather than truncating, and a DECIMAL's digits
        // too (22003 naming the column): the cast keeps only the scale, to which it rounds as the write would.
        if (type == ColumnType.DECIMAL) {
            return "DECIMAL(" + ColumnType.MAX_COMPUTED_DECIMAL_PRECISION + ", " + (key ? def.keyScale() : def.valueScale())
                    + ")";
        }
        return type.hasLength() ? type.name() : key ? def.keyDeclaration() : def.valueDeclaration();
    }

    /** The items of {@code (a, b), (c, d)} between pieces {@code from} and {@code to}, as text. */
    protected List<List<String>> rowItems(int from, int to) throws SqlError {
        List<List<String>> rows = new ArrayList<>();
        int i = from;
        while (i < to) {
            if (!pieces.get(i).isSymbol('(')) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "expected VALUES (...), (...) rows; found '"
                        + pieces.get(i).text() + "'");
            }
            List<String> items = new ArrayList<>();
            int depth = 0;
            int itemStart = i + 1;
            for (i = i + 1; i < to; i++) {
                Piece p = pieces.get(i);
                if (depth == 0 && (p.isSymbol(',') || p.isSymbol(')'))) {
                    if (itemStart == i) {
                        throw new SqlError(SqlState.SYNTAX_ERROR, "an empty item in VALUES at position "
                                + (p.start() + 1));
                    }
                    items.add(text(itemStart, i));
                    itemStart = i + 1;
                    if (p.isSymbol(')')) {
                        break;
                    }
                } else {
                    depth += p.isSymbol('(') ? 1 : p.isSymbol(')') ? -1 : 0;
                }
            }
            rows.add(items);
            i++;
            if (i < to && pieces.get(i).isSymbol(',')) {
                i++;
            }
        }
        return rows;
    }

    /** Index of the piece closing the parenthesis opened at {@code open}, or -1. */
    protected int closing(int open) {
        int depth = 0;
        for (int i = open; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            depth += p.isSymbol('(') ? 1 : p.isSymbol(')') ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return -1;
    }

    static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    protected Piece peek() {
        return pos < pieces.size() ? pieces.get(pos) : new Piece("", false, false, sql.length(), sql.length());
    }

    protected Piece next() throws SqlError {
        if (pos >= pieces.size()) {
            throw syntax("more");
        }
        return pieces.get(pos++);
    }

    protected boolean accept(String word) {
        if (peek().is(word)) {
            pos++;
            return true;
        }
        return false;
    }

    protected boolean accept(char symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    protected void expect(String token) throws SqlError {
        Piece p = peek();
        if (!(token.length() == 1 && !Character.isLetter(token.charAt(0)) ? p.isSymbol(token.charAt(0)) : p.is(token))) {
            throw syntax(token);
        }
        pos++;
    }

    protected boolean atEnd() {
        while (pos < pieces.size() && pieces.get(pos).isSymbol(';')) {
            pos++;
        }
        return pos >= pieces.size();
    }

    protected void expectEnd() throws SqlError {
        if (!atEnd()) {
            throw syntax("end of statement");
        }
    }

    protected SqlError syntax(String expected) {
        Piece p = peek();
        return new SqlError(SqlState.SYNTAX_ERROR, "syntax error at position " + (p.start() + 1) + ": expected "
                + expected + ", found " + (pos >= pieces.size() ? "end of statement" : "'" + p.text() + "'"));
    }

    /** Splits {@code sql} into pieces; strings and quoted names are one piece each. Null if a quote is open. */
    static List<Piece> scan(String sql) {
        List<Piece> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (true) {
            i = Lexer.skipSpaceAndComments(sql, i);
            if (i < 0) {
                return null;
            }
            if (i >= n) {
                break;
            }
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int start = i;
                StringBuilder text = new StringBuilder();
                i++;
                while (true) {
                    int end = sql.indexOf(c, i);
                    if (end < 0) {
                        return null;
                    }
                    text.append(sql, i, end);
                    if (end + 1 < n && sql.charAt(end + 1) == c) {
                        text.append(c);
                        i = end + 2;
                    } else {
                        i = end + 1;
                        break;
                    }
                }
                out.add(new Piece(c == '"' ? text.toString() : sql.substring(start, i), false, c == '"', start, i));
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Piece(sql.substring(start, i), Character.isLetter(c) || c == '_', false, start, i));
            } else {
                out.add(new Piece(String.valueOf(c), false, false, i, i + 1));
                i++;
            }
        }
        return out;
    }
}
