package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.KeyOperand;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.ReadView;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.List;

/**
 * The run-time half of a {@link KvScan}, stashed into the generated code: reads the execution's view of
 * the store. A ScannableTable only so the generated code can call it through a public interface.
 */
final class KvScanSource extends AbstractTable implements ScannableTable {

    private final TableDef def;
    private final KeyPredicate predicate;
    private final boolean keysOnly;
    private final boolean descending;
    private final KeyOperand offset;
    private final KeyOperand fetch;

    KvScanSource(TableDef def, KeyPredicate predicate, boolean keysOnly, boolean descending, KeyOperand offset,
                 KeyOperand fetch) {
        this.def = def;
        this.predicate = predicate;
        this.keysOnly = keysOnly;
        this.descending = descending;
        this.offset = offset;
        this.fetch = fetch;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return new KvTable(def).getRowType(typeFactory);
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        List<KeyPredicate.Bounds> bounds;
        long skip;
        long limit;
        try {
            bounds = KeyPredicate.resolve(predicate, def, ctx);
            skip = count(offset, ctx, 0);
            limit = count(fetch, ctx, Long.MAX_VALUE);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        List<KeyPredicate.Bounds> ordered = descending ? reversed(bounds) : bounds;
        // Keys-only rows are the key itself (Calcite's scalar row format), hence the unchecked cast.
        Enumerable<?> rows = new AbstractEnumerable<Object>() {
            @Override
            public Enumerator<Object> enumerator() {
                return new RangeEnumerator(ctx, ordered, skip, limit);
            }
        };
        @SuppressWarnings("unchecked")
        Enumerable<Object[]> typed = (Enumerable<Object[]>) rows;
        return typed;
    }

    private static List<KeyPredicate.Bounds> reversed(List<KeyPredicate.Bounds> bounds) {
        List<KeyPredicate.Bounds> copy = new java.util.ArrayList<>(bounds);
        java.util.Collections.reverse(copy);
        return copy;
    }

    private static long count(KeyOperand op, ExecutionContext ctx, long absent) throws SqlError {
        if (op == null) {
            return absent;
        }
        Object v = op.value(ctx);
        if (!(v instanceof Number n) || n.longValue() < 0) {
            throw new SqlError(SqlState.INVALID_PARAMETER_VALUE,
                    "OFFSET/FETCH must be a non-negative integer, got " + v);
        }
        return n.longValue();
    }

    /** Walks the ranges in order: a point is one get, an interval one ordered scan. */
    private final class RangeEnumerator implements Enumerator<Object> {
        private final ExecutionContext ctx;
        private final ReadView view;
        private final List<KeyPredicate.Bounds> bounds;
        private final long limit;
        private long toSkip;
        private long produced;
        private int index;
        private KvIterator it;
        private Object current;

        RangeEnumerator(ExecutionContext ctx, List<KeyPredicate.Bounds> bounds, long skip, long limit) {
            this.ctx = ctx;
            this.view = ctx.view();
            this.bounds = bounds;
            this.toSkip = skip;
            this.limit = limit;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            while (produced < limit) {
                ctx.checkRow();
                KeyValue kv = nextPair();
                if (kv == null) {
                    return false;
                }
                if (toSkip > 0) {
                    toSkip--;
                    continue;
                }
                Object key = def.decodeKey(kv.key());
                current = keysOnly ? key : new Object[] {key, def.decodeValue(kv.value())};
                produced++;
                return true;
            }
            return false;
        }

        private KeyValue nextPair() {
            while (true) {
                if (it != null) {
                    if (it.hasNext()) {
                        return it.next();
                    }
                    it.close();
                    it = null;
                }
                if (index >= bounds.size()) {
                    return null;
                }
                KeyPredicate.Bounds b = bounds.get(index++);
                if (b.point()) {
                    byte[] value = view.get(b.from());
                    if (value != null) {
                        return new KeyValue(b.from(), value);
                    }
                } else {
                    it = view.scan(b.from(), b.to(), descending);
                }
            }
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a key/value scan cannot be reset");
        }

        @Override
        public void close() {
            if (it != null) {
                it.close();
                it = null;
            }
            index = bounds.size();
        }
    }
}
