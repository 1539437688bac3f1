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
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.util.BuiltInMethod;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An aggregate of a key/value table's rows in some key ranges, computed by the scan that reads them
 * ({@link KvAggregateSource}): the scan's key ranges and value tests, then the groups (none, the value, or the
 * key: one group per row) and the {@link StoredAggregate} calls, each computed on stored bytes. Its rows are
 * the group columns (key or value, in the aggregate's order) followed by the calls' results; grouped by the key,
 * they come in key order, and the node's collation says so (an ORDER BY K above needs no sort).
 */
final class KvAggregate extends AbstractRelNode implements EnumerableRel {

    final TableDef def;
    final KeyPredicate predicate;
    final ValueFilter values;
    /** The columns (0 key, 1 value) each group field is, in the order of the rows' group fields. */
    final List<Integer> groups;
    final List<StoredAggregate> calls;
    private final List<String> table;
    private final double rows;

    KvAggregate(RelOptCluster cluster, RelTraitSet traits, RelDataType rowType, List<String> table, TableDef def,
                KeyPredicate predicate, ValueFilter values, List<Integer> groups, List<StoredAggregate> calls,
                double rows) {
        super(cluster, traits);
        this.rowType = rowType;
        this.table = table;
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.groups = List.copyOf(groups);
        this.calls = List.copyOf(calls);
        this.rows = rows;
    }

    /** The aggregate over {@code scan} (unlimited, ascending) with these groups and calls. */
    static KvAggregate of(KvScan scan, RelDataType rowType, List<Integer> groups, List<StoredAggregate> calls) {
        RelMetadataQuery mq = scan.getCluster().getMetadataQuery();
        double scanned = scan.estimateRowCount(mq);
        double rows = groups.isEmpty() ? 1 : groups.contains(0) ? scanned : Math.max(1, scanned / 10);
        RelTraitSet traits = scan.getCluster().traitSetOf(EnumerableConvention.INSTANCE);
        if (groups.contains(0)) {
            // One group per row, in the scan's key order.
            traits = traits.replace(RelCollations.of(groups.indexOf(0)));
        }
        return new KvAggregate(scan.getCluster(), traits, rowType, scan.getTable().getQualifiedName(), scan.def, scan.predicate, scan.values, groups, calls,
                rows);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new KvAggregate(getCluster(), traitSet, rowType, table, def, predicate, values, groups, calls, rows);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("table", table).itemIf("keys", predicate, predicate != null)
                .itemIf("values", values, values != null)
                .itemIf("keysOnly", true, !groups.contains(1) && calls.stream().noneMatch(StoredAggregate::readsValue))
                .itemIf("group", groups.stream().map(c -> c == 0 ? "K" : "V").collect(Collectors.joining(", ",
                        "[", "]")), !groups.isEmpty())
                .item("aggs", calls);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return rows;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeCost(rows, rows, 0);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression source = implementor.stash(new KvAggregateSource(def, predicate, values, groups, calls),
                ScannableTable.class);
        return implementor.result(physType, Blocks.toBlock(
                Expressions.call(source, BuiltInMethod.SCANNABLE_TABLE_SCAN.method, DataContext.ROOT)));
    }
}
