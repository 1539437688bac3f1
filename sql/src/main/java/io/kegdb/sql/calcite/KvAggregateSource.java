package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.StatementFailure;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The run-time half of a {@link KvAggregate}: one walk of the stored pairs ({@link StoredPairs}: the key ranges,
 * the value tests on the bytes), folding each kept pair into its group's {@link StoredAggregate.State}s. Groups on
 * the value are numbered by their canonical stored bytes ({@link StoredValueTable}) and decoded once each, as the
 * result is made; without groups there is one result row, also over no rows. Grouped by the key, each row is its
 * own group: rows come out as the scan reads them, in key order, one pair at a time.
 */
final class KvAggregateSource extends AbstractTable implements ScannableTable {

    /** The stored NULL value every NULL is grouped as (a stored value may also be empty). */
    private static final byte[] NULL = {0};
    /** The stored form of the one NaN all NaNs are grouped as (Java's Double.equals, as Calcite's groups). */
    private static final byte[] NAN = ColumnType.DOUBLE.encodeValue(Double.NaN, 0);

    private final TableDef def;
    private final KeyPredicate predicate;
    private final ValueFilter values;
    private final int[] groups;
    private final List<StoredAggregate> calls;
    private final boolean perRow;
    private final boolean groupsValue;
    private final boolean readsValues;

    KvAggregateSource(TableDef def, KeyPredicate predicate, ValueFilter values, List<Integer> groups,
                      List<StoredAggregate> calls) {
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.groups = groups.stream().mapToInt(Integer::intValue).toArray();
        this.calls = calls;
        this.perRow = groups.contains(0);
        this.groupsValue = groups.contains(1);
        this.readsValues = groupsValue || calls.stream().anyMatch(StoredAggregate::readsValue);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        throw new UnsupportedOperationException("only scanned by generated code");
    }

    /**
     * {@code stored} (a stored value of {@code type}) in the form every equal value has: NULL as one array, and
     * for DOUBLE every NaN as one NaN. Other encodings are one form per value already.
     */
    static byte[] canonical(ColumnType type, byte[] stored) {
        if (ColumnType.isNullValue(stored)) {
            return NULL;
        }
        if (type == ColumnType.DOUBLE && Double.isNaN(ColumnType.storedDouble(stored))) {
            return NAN;
        }
        return stored;
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        List<KeyPredicate.Bounds> bounds;
        ValueFilter.Resolved wanted;
        try {
            wanted = values == null ? null : values.resolve(def, ctx);
            bounds = KeyPredicate.resolve(predicate, def, ctx);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        Enumerable<?> rows;
        if (perRow) {
            rows = new AbstractEnumerable<Object>() {
                @Override
                public Enumerator<Object> enumerator() {
                    return new PerRow(new StoredPairs(ctx, bounds, wanted, readsValues));
                }
            };
        } else {
            rows = Linq4j.asEnumerable(aggregate(new StoredPairs(ctx, bounds, wanted, readsValues)));
        }
        // A one-field row is the value itself (Calcite's scalar row format), hence the unchecked cast.
        @SuppressWarnings("unchecked")
        Enumerable<Object[]> typed = (Enumerable<Object[]>) rows;
        return typed;
    }

    private StoredAggregate.State[] states() {
        StoredAggregate.State[] states = new StoredAggregate.State[calls.size()];
        for (int i = 0; i < states.length; i++) {
            states[i] = calls.get(i).state(def);
        }
        return states;
    }

    /** Every kept pair folded into its group (the value's, or the one group); a row per group. */
    private List<Object> aggregate(StoredPairs pairs) {
        StoredAggregate.State[] states = states();
        StoredValueTable groupValues = groups.length == 0 ? null : new StoredValueTable();
        ColumnType type = def.valueType();
        try (pairs) {
            StoredPair pair = pairs.current();
            while (pairs.next()) {
                int group = groupValues == null ? 0 : groupValues.idOf(canonical(type, pair.value()));
                for (StoredAggregate.State s : states) {
                    s.add(group, pair);
                }
            }
        }
        int count = groupValues == null ? 1 : groupValues.size();
        List<Object> out = new ArrayList<>(count);
        for (int g = 0; g < count; g++) {
            Object groupValue = groupValues == null ? null : def.decodeValue(groupValues.value(g));
            out.add(row(states, g, null, groupValue));
        }
        return out;
    }

    /** Group {@code g}'s row: its group fields ({@code key} and {@code value} decoded), then the results. */
    private Object row(StoredAggregate.State[] states, int g, Object key, Object value) {
        int width = groups.length + states.length;
        Object[] row = new Object[width];
        for (int i = 0; i < groups.length; i++) {
            row[i] = groups[i] == 0 ? key : value;
        }
        for (int i = 0; i < states.length; i++) {
            row[groups.length + i] = states[i].result(g);
        }
        return width == 1 ? row[0] : row;
    }

    /** GROUP BY K: each kept pair is a group of one row, computed and returned as the scan reaches it. */
    private final class PerRow implements Enumerator<Object> {
        private final StoredPairs pairs;
        private final StoredAggregate.State[] states = states();
        private Object current;

        PerRow(StoredPairs pairs) {
            this.pairs = pairs;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (!pairs.next()) {
                return false;
            }
            StoredPair pair = pairs.current();
            for (StoredAggregate.State s : states) {
                s.add(0, pair);
            }
            current = row(states, 0, def.decodeKey(pair.key()), groupsValue ? def.decodeValue(pair.value()) : null);
            for (StoredAggregate.State s : states) {
                s.reset(0);
            }
            return true;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a key/value scan cannot be reset");
        }

        @Override
        public void close() {
            pairs.close();
        }
    }
}
