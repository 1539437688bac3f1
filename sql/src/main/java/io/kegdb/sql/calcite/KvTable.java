package io.kegdb.sql.calcite;

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

/** A user table as Calcite sees it: two columns, the first a unique key; scanned through {@link KvScan}. */
final class KvTable extends AbstractTable implements TranslatableTable {

    /** Assumed size for planning; the store keeps no per-table counts. */
    static final double ROW_COUNT_GUESS = 100_000;

    final TableDef def;

    KvTable(TableDef def) {
        this.def = def;
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
        return Statistics.of(ROW_COUNT_GUESS, List.of(ImmutableBitSet.of(0)));
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        return KvScan.full(context.getCluster(), relOptTable, def);
    }
}
