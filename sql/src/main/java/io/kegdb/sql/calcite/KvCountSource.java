package io.kegdb.sql.calcite;

import io.kegdb.engine.KvCursor;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.ReadView;
import io.kegdb.sql.txn.StoreView;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.Arrays;
import java.util.List;

/**
 * The run-time half of a {@link KvCount}: counts the keys of the execution's view in the resolved ranges.
 * Straight from the store that is {@link io.kegdb.engine.KvStore#countKeys}, which reads no value; through
 * a transaction's uncommitted writes, a walk of the merged view's cursor (no pair copied). With value tests, a walk of the pairs that
 * tests each stored value and decodes none ({@link StoredPairs}).
 */
final class KvCountSource extends AbstractTable implements ScannableTable {

    private final TableDef def;
    private final KeyPredicate predicate;
    private final ValueFilter values;
    private final int columns;

    KvCountSource(TableDef def, KeyPredicate predicate, ValueFilter values, int columns) {
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.columns = columns;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        throw new UnsupportedOperationException("only scanned by generated code");
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        long count = 0;
        try {
            ValueFilter.Resolved wanted = values == null ? null : values.resolve(def, ctx);
            List<KeyPredicate.Bounds> bounds = KeyPredicate.resolve(predicate, def, ctx);
            if (wanted != null) {
                try (StoredPairs pairs = new StoredPairs(ctx, bounds, wanted, true)) {
                    while (pairs.next()) {
                        count++;
                    }
                }
            } else {
                for (KeyPredicate.Bounds b : bounds) {
                    ctx.checkRow();
                    count += b.point() ? (ctx.view().contains(b.from()) ? 1 : 0) : count(ctx.view(), b);
                }
            }
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        // One column is the value itself (Calcite's scalar row format); more are all the same COUNT(*).
        Object row = count;
        if (columns > 1) {
            Object[] array = new Object[columns];
            Arrays.fill(array, count);
            row = array;
        }
        @SuppressWarnings("unchecked")
        Enumerable<Object[]> typed = (Enumerable<Object[]>) (Enumerable<?>) Linq4j.asEnumerable(List.of(row));
        return typed;
    }

    private static long count(ReadView view, KeyPredicate.Bounds b) {
        if (view instanceof StoreView store) {
            return store.store().countKeys(b.from(), b.to());
        }
        long n = 0;
        try (KvCursor pairs = view.cursor(b.from(), b.to(), false)) {
            while (pairs.next()) {
                n++;
            }
        }
        return n;
    }
}
