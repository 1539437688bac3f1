package io.kegdb.sql.direct;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.CountResult;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.SqlErrors;

import java.util.ArrayList;
import java.util.List;

/**
 * CREATE TABLE and DROP TABLE, parsed by hand (Calcite's core parser has no DDL):
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] [schema.]name (k type [NOT NULL] PRIMARY KEY, v type [NULL])
 * CREATE TABLE [IF NOT EXISTS] [schema.]name (column, column, PRIMARY KEY (k))
 * DROP TABLE [IF EXISTS] [schema.]name [CASCADE | RESTRICT]
 * </pre>
 * The two columns may come in either order; the table is stored key first. CASCADE and RESTRICT mean the
 * same here: nothing can depend on a table (no views or foreign keys). DDL is not part of a transaction: it
 * takes effect at once.
 */
public final class DdlPlan extends CommandPlan {

    private final TableDef create;
    private final String dropSchema;
    private final String dropName;
    private final boolean ifClause;

    private DdlPlan(TableDef create, String dropSchema, String dropName, boolean ifClause) {
        this.create = create;
        this.dropSchema = dropSchema;
        this.dropName = dropName;
        this.ifClause = ifClause;
    }

    /** True if {@code tokens} start a DDL statement. */
    public static boolean isDdl(List<Lexer.Token> tokens) {
        return tokens.get(0).is("CREATE") || tokens.get(0).is("DROP");
    }

    public static DdlPlan parse(List<Lexer.Token> tokens, String defaultSchema) throws SqlError {
        TokenCursor c = new TokenCursor(tokens);
        if (c.accept("CREATE")) {
            expect(c, "TABLE");
            boolean ifNotExists = false;
            if (c.accept("IF")) {
                expect(c, "NOT");
                expect(c, "EXISTS");
                ifNotExists = true;
            }
            String[] name = qualifiedName(c, defaultSchema);
            return new DdlPlan(tableDef(c, name[0], name[1]), null, null, ifNotExists);
        }
        expect(c, "DROP");
        expect(c, "TABLE");
        boolean ifExists = false;
        if (c.accept("IF")) {
            expect(c, "EXISTS");
            ifExists = true;
        }
        String[] name = qualifiedName(c, defaultSchema);
        if (!c.accept("CASCADE")) {
            c.accept("RESTRICT");
        }
        if (!c.atEnd()) {
            throw syntax(c.peek(), "end of statement");
        }
        return new DdlPlan(null, name[0], name[1], ifExists);
    }

    private record Column(String name, ColumnType type, int length, int scale, boolean notNull,
                          boolean primaryKey) {
    }

    private static TableDef tableDef(TokenCursor c, String schema, String name) throws SqlError {
        expectSymbol(c, '(');
        List<Column> columns = new ArrayList<>();
        String tablePk = null;
        do {
            if (c.accept("PRIMARY")) {
                expect(c, "KEY");
                expectSymbol(c, '(');
                if (tablePk != null) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "table " + name + " declares PRIMARY KEY twice");
                }
                tablePk = name(c);
                if (c.peek().isSymbol(',')) {
                    throw new SqlError(SqlState.SYNTAX_ERROR,
                            "the primary key of a key/value table is exactly one column");
                }
                expectSymbol(c, ')');
            } else {
                columns.add(column(c));
            }
        } while (c.accept(','));
        expectSymbol(c, ')');
        if (!c.atEnd()) {
            throw syntax(c.peek(), "end of statement");
        }
        if (columns.size() != 2) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "a key/value table has exactly two columns (a key and a value), "
                    + name + " declares " + columns.size());
        }
        if (columns.get(0).name().equals(columns.get(1).name())) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "duplicate column name " + columns.get(0).name());
        }
        long pkColumns = columns.stream().filter(Column::primaryKey).count();
        if (pkColumns + (tablePk == null ? 0 : 1) != 1) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "a key/value table needs exactly one PRIMARY KEY column");
        }
        String pk = tablePk != null ? tablePk : columns.stream().filter(Column::primaryKey).findFirst().get().name();
        int keyIndex = pk.equals(columns.get(0).name()) ? 0 : pk.equals(columns.get(1).name()) ? 1 : -1;
        if (keyIndex < 0) {
            throw new SqlError(SqlState.COLUMN_NOT_FOUND, "PRIMARY KEY column " + pk + " is not a column of " + name);
        }
        Column key = columns.get(keyIndex);
        Column value = columns.get(1 - keyIndex);
        if (value.notNull()) {
            throw new SqlError(SqlState.SYNTAX_ERROR,
                    "the value column " + value.name() + " is always nullable; NOT NULL is not supported");
        }
        return new TableDef(schema, name, 0, key.name(), key.type(), key.length(), key.scale(), value.name(),
                value.type(), value.length(), value.scale());
    }

    private static Column column(TokenCursor c) throws SqlError {
        String name = name(c);
        Lexer.Token typeToken = c.next();
        ColumnType type = typeToken.kind() == Lexer.Kind.WORD ? ColumnType.named(typeToken.text()) : null;
        if (type == null) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "unsupported type " + typeToken.text() + " for column " + name
                    + ": key/value tables take VARCHAR, VARBINARY, BIGINT, INTEGER, DOUBLE, BOOLEAN, DECIMAL, DATE"
                    + " or TIMESTAMP");
        }
        if (typeToken.is("DOUBLE")) {
            c.accept("PRECISION");
        }
        int[] modifiers = modifiers(c, name);
        int length;
        int scale = 0;
        switch (type) {
            case VARCHAR, VARBINARY -> {
                noMoreThan(modifiers, 1, typeToken, name);
                length = modifiers.length == 0 ? 0 : modifiers[0];
                if (modifiers.length == 1 && length <= 0) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "length of column " + name + " must be positive");
                }
            }
            case DECIMAL -> {
                noMoreThan(modifiers, 2, typeToken, name);
                length = modifiers.length == 0 ? ColumnType.MAX_DECIMAL_PRECISION : modifiers[0];
                scale = modifiers.length == 2 ? modifiers[1] : 0;
                if (length < 1 || length > ColumnType.MAX_DECIMAL_PRECISION || scale > length) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "column " + name + " " + typeToken.text()
                            + modifierText(modifiers) + ": precision must be 1 to " + ColumnType.MAX_DECIMAL_PRECISION
                            + " and scale 0 to the precision");
                }
            }
            case TIMESTAMP -> {
                noMoreThan(modifiers, 1, typeToken, name);
                int digits = modifiers.length == 0 ? ColumnType.MAX_TIMESTAMP_PRECISION : modifiers[0];
                if (digits > 9) {
                    throw new SqlError(SqlState.SYNTAX_ERROR,
                            "column " + name + ": TIMESTAMP precision must be 0 to 9");
                }
                // Values are kept to the millisecond: finer precisions are accepted and hold milliseconds.
                length = Math.min(digits, ColumnType.MAX_TIMESTAMP_PRECISION);
                if (c.accept("WITHOUT")) {
                    expect(c, "TIME");
                    expect(c, "ZONE");
                } else if (c.peek().is("WITH")) {
                    throw new SqlError(SqlState.SYNTAX_ERROR, "column " + name
                            + ": TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP (a local date-time)");
                }
            }
            default -> {
                // FLOAT(p) names a binary precision; every FLOAT is held as a DOUBLE.
                noMoreThan(modifiers, typeToken.is("FLOAT") ? 1 : 0, typeToken, name);
                length = 0;
            }
        }
        boolean notNull = false;
        boolean pk = false;
        while (true) {
            if (c.accept("NOT")) {
                expect(c, "NULL");
                notNull = true;
            } else if (c.accept("NULL")) {
                notNull = false;
            } else if (c.accept("PRIMARY")) {
                expect(c, "KEY");
                pk = true;
            } else {
                break;
            }
        }
        return new Column(name, type, length, scale, notNull && !pk, pk);
    }

    /** {@code (n)} or {@code (n, m)} after a type name: the numbers (none if there are no parentheses). */
    private static int[] modifiers(TokenCursor c, String column) throws SqlError {
        if (!c.accept('(')) {
            return new int[0];
        }
        List<Integer> out = new ArrayList<>();
        do {
            Lexer.Token n = c.next();
            if (n.kind() != Lexer.Kind.NUMBER) {
                throw syntax(n, "a number");
            }
            try {
                out.add(Integer.parseInt(n.text()));
            } catch (NumberFormatException e) {
                throw new SqlError(SqlState.SYNTAX_ERROR, "length " + n.text() + " of column " + column
                        + " is too large");
            }
        } while (c.accept(','));
        expectSymbol(c, ')');
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void noMoreThan(int[] modifiers, int allowed, Lexer.Token type, String column) throws SqlError {
        if (modifiers.length > allowed) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "column " + column + ": " + type.text() + " takes "
                    + (allowed == 0 ? "no length or precision" : allowed == 1 ? "at most one number"
                    : "at most (precision, scale)") + ", not " + type.text() + modifierText(modifiers));
        }
    }

    private static String modifierText(int[] modifiers) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < modifiers.length; i++) {
            b.append(i == 0 ? "" : ", ").append(modifiers[i]);
        }
        return b.append(')').toString();
    }

    private static String[] qualifiedName(TokenCursor c, String defaultSchema) throws SqlError {
        String first = name(c);
        if (c.accept('.')) {
            return new String[] {first, name(c)};
        }
        return new String[] {defaultSchema, first};
    }

    private static String name(TokenCursor c) throws SqlError {
        Lexer.Token t = c.next();
        if (!t.isName()) {
            throw syntax(t, "a name");
        }
        // Names that Calcite's parser cannot read back would make a table no query can reach.
        if (t.text().isEmpty() || t.text().indexOf('\n') >= 0 || t.text().indexOf('\r') >= 0) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "invalid name at position " + (t.position() + 1)
                    + ": a quoted name must not be empty or hold line breaks");
        }
        return t.text();
    }

    private static void expect(TokenCursor c, String word) throws SqlError {
        if (!c.accept(word)) {
            throw syntax(c.peek(), word);
        }
    }

    private static void expectSymbol(TokenCursor c, char symbol) throws SqlError {
        if (!c.accept(symbol)) {
            throw syntax(c.peek(), "'" + symbol + "'");
        }
    }

    static SqlError syntax(Lexer.Token at, String expected) {
        String found = at.kind() == Lexer.Kind.END ? "end of statement" : "'" + at.text() + "'";
        return new SqlError(SqlState.SYNTAX_ERROR,
                "syntax error at position " + (at.position() + 1) + ": expected " + expected
                + ", found " + found);
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (!params.isEmpty()) {
            throw new SqlError(SqlState.PARAMETER_MISSING, "DDL takes no parameters");
        }
        session.checkWritable();
        Catalog catalog = session.catalog();
        try {
            if (create != null) {
                catalog.create(create, ifClause);
            } else {
                catalog.drop(dropSchema, dropName, ifClause);
            }
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
        return new CountResult(0);
    }
}
