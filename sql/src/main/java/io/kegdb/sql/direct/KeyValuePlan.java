package io.kegdb.sql.direct;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.CountResult;
import io.kegdb.sql.plan.EnumeratorResult;
import io.kegdb.sql.plan.KeyOperand;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.SqlErrors;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.List;

/**
 * The key/value statement shapes, run straight against the session's view of the store with no Calcite
 * planning or generated code:
 * <pre>
 * SELECT * | cols FROM t WHERE k = x
 * INSERT | UPSERT INTO t [(k, v)] VALUES (x, y)
 * UPDATE t SET v = x WHERE k = y
 * DELETE FROM t WHERE k = x
 * </pre>
 * where x, y are {@code ?} or literals of the column's type. Anything else is left to Calcite.
 */
public final class KeyValuePlan implements Plan {

    enum Kind { SELECT, INSERT, UPSERT, UPDATE, DELETE }

    private final Kind kind;
    private final TableDef def;
    private final long version;
    private final KeyOperand key;
    private final KeyOperand value;
    /** For SELECT: which table columns, in output order (0 = key, 1 = value). */
    private final int[] projection;
    private final List<ColumnInfo> parameters;
    private final List<ColumnInfo> columns;

    private KeyValuePlan(Kind kind, TableDef def, long version, KeyOperand key, KeyOperand value, int[] projection,
                         List<ColumnInfo> parameters) {
        this.kind = kind;
        this.def = def;
        this.version = version;
        this.key = key;
        this.value = value;
        this.projection = projection;
        this.parameters = parameters;
        List<ColumnInfo> cols = new ArrayList<>();
        if (projection != null) {
            for (int p : projection) {
                cols.add(def.column(p));
            }
        }
        this.columns = List.copyOf(cols);
    }

    /** The plan if {@code tokens} are one of the shapes over a user table, else null. */
    public static KeyValuePlan match(List<Lexer.Token> tokens, Catalog.Snapshot catalog, String schema) {
        TokenCursor c = new TokenCursor(tokens);
        Lexer.Token first = c.next();
        Operands ops = new Operands();
        if (first.is("SELECT")) {
            List<String> names = new ArrayList<>();
            boolean star = c.accept('*');
            if (!star) {
                do {
                    Lexer.Token t = c.next();
                    if (!t.isName()) {
                        return null;
                    }
                    names.add(t.text());
                } while (c.accept(','));
            }
            if (!c.accept("FROM")) {
                return null;
            }
            TableDef def = table(c, catalog, schema);
            KeyOperand k = def == null ? null : whereKey(c, ops, def);
            if (k == null) {
                return null;
            }
            int[] projection = star ? new int[] {0, 1} : new int[names.size()];
            for (int i = 0; !star && i < names.size(); i++) {
                projection[i] = names.get(i).equals(def.keyColumn()) ? 0 : names.get(i).equals(def.valueColumn()) ? 1 : -1;
                if (projection[i] < 0) {
                    return null;
                }
            }
            return new KeyValuePlan(Kind.SELECT, def, catalog.version(), k, null, projection, ops.params);
        }
        if (first.is("INSERT") || first.is("UPSERT")) {
            if (!c.accept("INTO")) {
                return null;
            }
            TableDef def = table(c, catalog, schema);
            if (def == null) {
                return null;
            }
            boolean valueFirst = false;
            if (c.accept('(')) {
                Lexer.Token a = c.next();
                if (!c.accept(',')) {
                    return null;
                }
                Lexer.Token b = c.next();
                if (!c.accept(')') || !a.isName() || !b.isName()) {
                    return null;
                }
                if (a.text().equals(def.valueColumn()) && b.text().equals(def.keyColumn())) {
                    valueFirst = true;
                } else if (!a.text().equals(def.keyColumn()) || !b.text().equals(def.valueColumn())) {
                    return null;
                }
            }
            if (!c.accept("VALUES") || !c.accept('(')) {
                return null;
            }
            KeyOperand x = ops.read(c, valueFirst ? def.valueType() : def.keyType(), def, valueFirst ? 1 : 0);
            if (x == null || !c.accept(',')) {
                return null;
            }
            KeyOperand y = ops.read(c, valueFirst ? def.keyType() : def.valueType(), def, valueFirst ? 0 : 1);
            if (y == null || !c.accept(')') || !c.atEnd()) {
                return null;
            }
            return new KeyValuePlan(first.is("INSERT") ? Kind.INSERT : Kind.UPSERT, def, catalog.version(),
                    valueFirst ? y : x, valueFirst ? x : y, null, ops.params);
        }
        if (first.is("UPDATE")) {
            TableDef def = table(c, catalog, schema);
            if (def == null || !c.accept("SET") || !column(c, def.valueColumn()) || !c.accept('=')) {
                return null;
            }
            KeyOperand v = ops.read(c, def.valueType(), def, 1);
            KeyOperand k = v == null ? null : whereKey(c, ops, def);
            if (k == null) {
                return null;
            }
            return new KeyValuePlan(Kind.UPDATE, def, catalog.version(), k, v, null, ops.params);
        }
        if (first.is("DELETE")) {
            if (!c.accept("FROM")) {
                return null;
            }
            TableDef def = table(c, catalog, schema);
            KeyOperand k = def == null ? null : whereKey(c, ops, def);
            if (k == null) {
                return null;
            }
            return new KeyValuePlan(Kind.DELETE, def, catalog.version(), k, null, null, ops.params);
        }
        return null;
    }

    private static TableDef table(TokenCursor c, Catalog.Snapshot catalog, String schema) {
        Lexer.Token a = c.next();
        if (!a.isName()) {
            return null;
        }
        if (c.accept('.')) {
            Lexer.Token b = c.next();
            return b.isName() ? catalog.find(a.text(), b.text()) : null;
        }
        return catalog.find(schema, a.text());
    }

    /** {@code WHERE key = x} ending the statement, x a parameter or non-NULL literal; else null. */
    private static KeyOperand whereKey(TokenCursor c, Operands ops, TableDef def) {
        if (!c.accept("WHERE") || !column(c, def.keyColumn()) || !c.accept('=')) {
            return null;
        }
        KeyOperand k = ops.read(c, def.keyType(), def, 0);
        return k == null || (k.param() < 0 && k.literal() == null) || !c.atEnd() ? null : k;
    }

    private static boolean column(TokenCursor c, String name) {
        Lexer.Token t = c.next();
        return t.isName() && t.text().equals(name);
    }

    /** Reads operands, numbering parameters in order of appearance. */
    private static final class Operands {
        final List<ColumnInfo> params = new ArrayList<>();

        /** {@code ?}, NULL, or a literal of {@code type}; null if something else. */
        KeyOperand read(TokenCursor c, ColumnType type, TableDef def, int column) {
            Lexer.Token t = c.next();
            switch (t.kind()) {
                case PARAM:
                    params.add(def.column(column));
                    return KeyOperand.param(params.size() - 1);
                case STRING:
                    return type == ColumnType.VARCHAR ? KeyOperand.literal(t.text()) : null;
                case BINARY:
                    return type == ColumnType.VARBINARY ? KeyOperand.literal(new ByteString(Lexer.hex(t.text()))) : null;
                case NUMBER:
                    return type == ColumnType.BIGINT ? number(t.text(), false) : null;
                case SYMBOL:
                    if (t.isSymbol('-') && type == ColumnType.BIGINT && c.peek().kind() == Lexer.Kind.NUMBER) {
                        return number(c.next().text(), true);
                    }
                    return null;
                case WORD:
                    return t.is("NULL") ? KeyOperand.literal(null) : null;
                default:
                    return null;
            }
        }

        private static KeyOperand number(String digits, boolean negative) {
            try {
                return KeyOperand.literal(Long.parseLong(negative ? "-" + digits : digits));
            } catch (NumberFormatException e) {
                return null; // out of range: Calcite reports it
            }
        }
    }

    /** What EXPLAIN shows for a fast-path statement. */
    @Override
    public String explain() {
        String access = switch (kind) {
            case SELECT -> "one get";
            case UPDATE -> "one put if present";
            case INSERT -> "one putIfAbsent";
            case UPSERT -> "one put";
            case DELETE -> "one delete";
        };
        return "KeyValuePlan(" + kind + ", table=[" + def.qualifiedName() + "], key=" + key + ", store: " + access
                + ")";
    }

    @Override
    public long catalogVersion() {
        return version;
    }

    @Override
    public boolean isQuery() {
        return kind == Kind.SELECT;
    }

    @Override
    public List<ColumnInfo> parameters() {
        return parameters;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (params.size() != parameters.size()) {
            throw new SqlError(SqlState.PARAMETER_MISSING,
                    "statement has " + parameters.size() + " parameters, " + params.size()
                    + " given");
        }
        try {
            if (kind == Kind.SELECT) {
                Object k = def.searchKey(operand(key, params));
                if (k == null) {
                    return new EnumeratorResult(columns, Linq4j.emptyEnumerator(), maxRows);
                }
                byte[] stored = session.view().get(def.key(k));
                if (stored == null) {
                    return new EnumeratorResult(columns, Linq4j.emptyEnumerator(), maxRows);
                }
                Object[] full = {k, def.decodeValue(stored)};
                Object[] row = new Object[projection.length];
                for (int i = 0; i < row.length; i++) {
                    row[i] = full[projection[i]];
                }
                return new EnumeratorResult(columns, Linq4j.singletonEnumerator(row), maxRows);
            }
            // UPDATE and DELETE search for their key (a key no row can have, say finer than a DECIMAL key's
            // scale, matches none); INSERT and UPSERT write theirs, fitted to the column as a value is
            boolean search = kind == Kind.UPDATE || kind == Kind.DELETE;
            Object keyValue = search ? def.searchKey(operand(key, params)) : def.checkedKey(operand(key, params));
            byte[] v = kind == Kind.DELETE ? null
                    : def.encodeValue(def.checkedValue(operand(value, params)));
            if (keyValue == null) {
                return new CountResult(0);
            }
            byte[] k = def.key(keyValue);
            long count = switch (kind) {
                case INSERT -> session.insertOne(def, k, v, keyValue);
                case UPSERT -> session.putOne(k, v, false);
                case UPDATE -> session.putOne(k, v, true);
                default -> session.deleteOne(k);
            };
            return new CountResult(count);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    private static Object operand(KeyOperand op, List<?> params) {
        return op.param() >= 0 ? params.get(op.param()) : op.literal();
    }
}
