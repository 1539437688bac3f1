package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.KeyOperand;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.ReadView;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function2;

import java.util.Arrays;
import java.util.List;

/**
 * The run-time half of a {@link KvLookupJoin}, stashed into the generated code: joins the outer rows (arrays)
 * with the rows their keys find through the execution's read view, so a transaction records each lookup as
 * a point read (present or absent), as it does a scan's points. A Function2 only so the generated code can
 * call it through a public interface.
 */
final class KvLookupSource implements Function2<Enumerable<Object[]>, DataContext, Enumerable<Object[]>> {

    private final TableDef def;
    private final KeyPredicate predicate;
    private final KeyOperand valueEquals;
    private final boolean keysOnly;
    private final int outerKey;
    private final boolean innerFirst;
    private final boolean keepOuter;

    KvLookupSource(TableDef def, KeyPredicate predicate, KeyOperand valueEquals, boolean keysOnly, int outerKey,
                   boolean innerFirst, boolean keepOuter) {
        this.def = def;
        this.predicate = predicate;
        this.valueEquals = valueEquals;
        this.keysOnly = keysOnly;
        this.outerKey = outerKey;
        this.innerFirst = innerFirst;
        this.keepOuter = keepOuter;
    }

    @Override
    public Enumerable<Object[]> apply(Enumerable<Object[]> outer, DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        List<KeyPredicate.Bounds> bounds;
        byte[] wanted;
        try {
            wanted = valueEquals == null ? null : def.searchValue(valueEquals.value(ctx));
            // V = NULL: no row of the table takes part
            bounds = valueEquals != null && wanted == null ? List.of()
                    : predicate == null ? null : predicate.resolve(def, ctx);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return new Lookups(ctx, outer.enumerator(), bounds, wanted);
            }
        };
    }

    /** One lookup per outer row, in the outer's order. */
    private final class Lookups implements Enumerator<Object[]> {
        private final ExecutionContext ctx;
        private final ReadView view;
        private final Enumerator<Object[]> outer;
        /** The table's key conditions resolved (ascending, as {@link KeyPredicate#resolve} gives them); null: all. */
        private final List<KeyPredicate.Bounds> bounds;
        /** The stored value a found row must hold (the scan's value equality), or null for any. */
        private final byte[] wanted;
        private final int innerWidth = keysOnly ? 1 : 2;
        private Object[] current;

        Lookups(ExecutionContext ctx, Enumerator<Object[]> outer, List<KeyPredicate.Bounds> bounds, byte[] wanted) {
            this.ctx = ctx;
            this.view = ctx.view();
            this.outer = outer;
            this.bounds = bounds;
            this.wanted = wanted;
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            while (outer.moveNext()) {
                ctx.checkRow();
                Object[] o = outer.current();
                Object[] found = lookup(o[outerKey]);
                if (found != null || keepOuter) {
                    current = joined(o, found);
                    return true;
                }
            }
            return false;
        }

        /** The table's row whose key equals {@code value} and meets its key and value conditions, or null. */
        private Object[] lookup(Object value) {
            if (value == null) {
                return null;
            }
            byte[] key;
            try {
                Object k = def.searchKey(value);
                if (k == null) {
                    return null;
                }
                key = def.key(k);
            } catch (SqlError e) {
                throw new StatementFailure(e);
            }
            if (bounds != null && !selected(key)) {
                return null;
            }
            if (keysOnly && wanted == null) {
                return view.contains(key) ? new Object[] {def.decodeKey(key)} : null;
            }
            byte[] v = view.get(key);
            if (v == null || (wanted != null && !Arrays.equals(v, wanted))) {
                return null;
            }
            return keysOnly ? new Object[] {def.decodeKey(key)} : new Object[] {def.decodeKey(key), def.decodeValue(v)};
        }

        private boolean selected(byte[] key) {
            for (KeyPredicate.Bounds b : bounds) {
                if (Arrays.compareUnsigned(b.from(), key) > 0) {
                    return false; // ascending starts: no later bound holds the key
                }
                if (b.point() ? Arrays.equals(b.from(), key) : Arrays.compareUnsigned(key, b.to()) < 0) {
                    return true;
                }
            }
            return false;
        }

        private Object[] joined(Object[] o, Object[] found) {
            Object[] row = new Object[o.length + innerWidth];
            int innerAt = innerFirst ? 0 : o.length;
            System.arraycopy(o, 0, row, innerFirst ? innerWidth : 0, o.length);
            if (found != null) {
                System.arraycopy(found, 0, row, innerAt, innerWidth);
            }
            return row;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a lookup join cannot be reset");
        }

        @Override
        public void close() {
            outer.close();
        }
    }
}
