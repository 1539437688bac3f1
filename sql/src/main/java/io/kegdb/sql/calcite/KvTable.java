package io.kegdb.sql.calcite;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * A user table as Calcite sees it: two columns, the first a unique key; scanned through {@link KvScan}. Its
 * row count for planning is the store's count of the table's keys where the store keeps one in an index.
 */
final class KvTable extends AbstractTable implements TranslatableTable {

    /** Assumed size for planning when the store cannot count a table's keys from an index. */
    static final double ROW_COUNT_GUESS = 100_000;

    final TableDef def;
    /** Where the row count comes from; null for a table used for its row type alone. */
    private final KvStore store;
    /** The last count and the store's write version it was taken at (-1: never, or no versions). */
    private volatile Counted counted = new Counted(-1, ROW_COUNT_GUESS);

    private record Counted(long writeVersion, double rows) {
    }

    KvTable(TableDef def) {
        this(def, null);
    }

    KvTable(TableDef def, KvStore store) {
        this.def = def;
        this.store = store;
    }

    /**
     * The table's rows as the planner assumes them: the store's count (at least 1, so costs stay positive), or
     * {@link #ROW_COUNT_GUESS}. Counted again only after a write, as Calcite asks many times per plan.
     */
    double rowCount() {
        if (store == null) {
            return ROW_COUNT_GUESS;
        }
        long version = store.writeVersion();
        Counted c = counted;
        if (version >= 0 && c.writeVersion() == version) {
            return c.rows();
        }
        long n = store.countKeysFromIndex(def.prefix(), def.prefixEnd());
        double rows = n < 0 ? ROW_COUNT_GUESS : Math.max(n, 1);
        counted = new Counted(version, rows);
        return rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory.builder()
                .add(def.keyColumn(), sqlType(typeFactory, def.keyType(), def.keyLength(), def.keyScale(), false))
                .add(def.valueColumn(), sqlType(typeFactory, def.valueType(), def.valueLength(), def.valueScale(),
                        true))
                .build();
    }

    static RelDataType sqlType(RelDataTypeFactory typeFactory, ColumnType type, int length, int scale,
                               boolean nullable) {
        SqlTypeName name = SqlTypeName.valueOf(type.name());
        RelDataType t = switch (type) {
            case DECIMAL -> typeFactory.createSqlType(name, length, scale);
            case TIMESTAMP -> typeFactory.createSqlType(name, length);
            // No declared length: precision unspecified, which Calcite never truncates to.
            default -> type.hasLength() && length > 0 ? typeFactory.createSqlType(name, length)
                    : typeFactory.createSqlType(name);
        };
        return typeFactory.createTypeWithNullability(t, nullable);
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(rowCount(), List.of(ImmutableBitSet.of(0)));
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        return KvScan.full(context.getCluster(), relOptTable, def);
    }
}
