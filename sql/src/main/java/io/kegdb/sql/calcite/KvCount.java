package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.TableDef;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.util.BuiltInMethod;

import java.util.List;

/**
 * {@code COUNT(*)} of a key/value table's rows in some key ranges, answered by the store: one row with the
 * count, no value read; with value tests, each value tested as stored bytes and none decoded (see
 * {@link KvCountSource}).
 */
final class KvCount extends AbstractRelNode implements EnumerableRel {

    final TableDef def;
    final KeyPredicate predicate;
    final ValueFilter values;
    private final List<String> table;

    KvCount(RelOptCluster cluster, RelTraitSet traits, RelDataType rowType, List<String> table, TableDef def,
            KeyPredicate predicate, ValueFilter values) {
        super(cluster, traits);
        this.rowType = rowType;
        this.table = table;
        this.def = def;
        this.predicate = predicate;
        this.values = values;
    }

    static KvCount of(KvScan scan, RelDataType rowType) {
        return new KvCount(scan.getCluster(), scan.getCluster().traitSetOf(EnumerableConvention.INSTANCE), rowType,
                scan.getTable().getQualifiedName(), scan.def, scan.predicate, scan.values);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new KvCount(getCluster(), traitSet, rowType, table, def, predicate, values);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("table", table).itemIf("keys", predicate, predicate != null)
                .itemIf("values", values, values != null);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return 1;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeCost(1, 1, 1);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression source = implementor.stash(new KvCountSource(def, predicate, values, rowType.getFieldCount()),
                ScannableTable.class);
        return implementor.result(physType, Blocks.toBlock(
                Expressions.call(source, BuiltInMethod.SCANNABLE_TABLE_SCAN.method, DataContext.ROOT)));
    }
}
