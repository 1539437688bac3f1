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
 * CREATE TABLE [IF NOT EXISTS] [schema.]name (column, column, [CONSTRAINT c] PRIMARY KEY (k))
 * DROP TABLE [IF EXISTS] [schema.]name [CASCADE | RESTRICT]
 * </pre>
 * A column's type may be any spelling {@link TypeSpelling} reads.
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
            // CONSTRAINT name PRIMARY KEY (k), as Liquibase and schema exporters write it
            boolean constraint = c.accept("CONSTRAINT");
            if (constraint) {
                name(c);
            }
            if (constraint || c.accept("PRIMARY")) {
                if (constraint) {
                    expect(c, "PRIMARY");
                }
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
        TypeSpelling type = TypeSpelling.parse(c, name);
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
        return new Column(name, type.type(), type.length(), type.scale(), notNull && !pk, pk);
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
