package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.Overlay;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.rel.core.TableModify;

import java.util.List;

/**
 * Applies the rows of an INSERT/UPSERT/UPDATE/DELETE to the statement's overlay; returns the row count.
 * A Function2 only so generated code can call it through a public interface.
 */
public final class KvModifier implements Function2<DataContext, Enumerable<Object[]>, Enumerable<Long>> {

    private final TableDef def;
    private final TableModify.Operation operation;
    private final boolean upsert;
    private final List<String> updateColumns;

    KvModifier(TableDef def, TableModify.Operation operation, boolean upsert, List<String> updateColumns) {
        this.def = def;
        this.operation = operation;
        this.upsert = upsert;
        this.updateColumns = updateColumns == null ? List.of() : List.copyOf(updateColumns);
    }

    @Override
    public Enumerable<Long> apply(DataContext root, Enumerable<Object[]> rows) {
        ExecutionContext ctx = (ExecutionContext) root;
        try {
            Overlay writes = ctx.writes();
            long count = 0;
            try (Enumerator<Object[]> e = rows.enumerator()) {
                while (e.moveNext()) {
                    ctx.checkRow();
                    apply(writes, e.current());
                    count++;
                }
            }
            return Linq4j.singletonEnumerable(count);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
    }

    private void apply(Overlay writes, Object[] row) throws SqlError {
        switch (operation) {
            case INSERT -> {
                Object key = def.checkedKey(row[0]);
                byte[] value = def.encodeValue(def.checkedValue(row[1]));
                if (upsert) {
                    byte[] k = def.key(key);
                    if (writes.writesEachKeyOnce() && writes.wrote(k)) {
                        // a row the statement found (the key existed before it) matched twice, else two new rows
                        throw writes.base().contains(k) ? new SqlError(SqlState.CARDINALITY_VIOLATION,
                                "the source of the MERGE gives key " + def.keyColumn() + " = " + show(key)
                                + " of table " + def.qualifiedName() + " more than once") : duplicate(def, key);
                    }
                    writes.put(k, value);
                } else {
                    insert(writes, key, value);
                }
            }
            case DELETE -> writes.delete(def.key(def.checkedKey(row[0])));
            case UPDATE -> update(writes, row);
            default -> throw new SqlError(SqlState.SYNTAX_ERROR, operation + " is not supported on key/value tables");
        }
    }

    private void update(Overlay writes, Object[] row) throws SqlError {
        Object oldKey = def.checkedKey(row[0]);
        Object newKey = oldKey;
        Object newValue = row[1];
        for (int i = 0; i < updateColumns.size(); i++) {
            if (updateColumns.get(i).equals(def.keyColumn())) {
                newKey = def.checkedKey(row[2 + i]);
            } else {
                newValue = row[2 + i];
            }
        }
        byte[] value = def.encodeValue(def.checkedValue(newValue));
        if (newKey.equals(oldKey)) {
            writes.put(def.key(oldKey), value);
        } else {
            writes.delete(def.key(oldKey));
            insert(writes, newKey, value);
        }
    }

    private void insert(Overlay writes, Object key, byte[] value) throws SqlError {
        if (!writes.insertIfAbsent(def.key(key), value)) {
            throw duplicate(def, key);
        }
    }

    public static SqlError duplicate(TableDef def, Object key) {
        return new SqlError(SqlState.DUPLICATE_KEY, "duplicate key " + def.keyColumn() + " = " + KvModifier.show(key)
                + " in table " + def.qualifiedName());
    }

    static String show(Object key) {
        if (key instanceof String s) {
            return "'" + (s.length() > 100 ? s.substring(0, 100) + "..." : s) + "'";
        }
        return String.valueOf(key);
    }
}
