package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.util.BuiltInMethod;

import java.util.List;

/**
 * Reads a key/value table from the store: everything, or only the key ranges of a pushed-down predicate,
 * in ascending or descending key order, keeping only rows whose value passes {@code values} (checked on the
 * stored bytes, before a row is decoded), stopping after {@code offset + fetch} such rows, and optionally
 * producing the key column alone.
 */
final class KvScan extends TableScan implements EnumerableRel {

    final TableDef def;
    final KeyPredicate predicate;
    final ValueFilter values;
    final boolean keysOnly;
    final boolean descending;
    final KeyOperand offset;
    final KeyOperand fetch;
    /** The rows ordered by value and cut to a limit inside the scan; null for key order. */
    final TopN topN;

    KvScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableDef def, KeyPredicate predicate,
           ValueFilter values, boolean keysOnly, boolean descending, KeyOperand offset, KeyOperand fetch) {
        this(cluster, traits, table, def, predicate, values, keysOnly, descending, offset, fetch, null);
    }

    private KvScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableDef def, KeyPredicate predicate,
                   ValueFilter values, boolean keysOnly, boolean descending, KeyOperand offset, KeyOperand fetch,
                   TopN topN) {
        super(cluster, topN != null ? traits.replace(topN.collation()) : ordered(traits, descending), List.of(),
                table);
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.keysOnly = keysOnly;
        this.descending = descending;
        this.offset = offset;
        this.fetch = fetch;
        this.topN = topN;
    }

    /** A scan produces key order, ascending or descending, unless it is a {@link TopN}. */
    private static RelTraitSet ordered(RelTraitSet traits, boolean descending) {
        return traits.replace(RelCollations.of(new RelFieldCollation(0, descending
                ? RelFieldCollation.Direction.DESCENDING : RelFieldCollation.Direction.ASCENDING)));
    }

    static KvScan full(RelOptCluster cluster, RelOptTable table, TableDef def) {
        return new KvScan(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), table, def, null, null,
                false, false, null, null);
    }

    boolean limited() {
        return fetch != null || offset != null || topN != null;
    }

    /** Whether the scan keeps rows by their values too (so it reads values, and counting keys is not enough). */
    boolean filtersValues() {
        return values != null;
    }

    KvScan withConditions(KeyPredicate p, ValueFilter v) {
        return new KvScan(getCluster(), traitSet, table, def, p, v, keysOnly, descending, offset, fetch, topN);
    }

    KvScan withKeysOnly() {
        return new KvScan(getCluster(), traitSet, table, def, predicate, values, true, descending, offset, fetch,
                topN);
    }

    KvScan withOrder(boolean desc, KeyOperand off, KeyOperand limit) {
        return new KvScan(getCluster(), traitSet, table, def, predicate, values, keysOnly, desc, off, limit);
    }

    /** This scan (unlimited, in ascending key order) keeping only the top-N rows by value. */
    KvScan withTopN(TopN n) {
        return new KvScan(getCluster(), traitSet, table, def, predicate, values, keysOnly, false, null, null, n);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new KvScan(getCluster(), traitSet, table, def, predicate, values, keysOnly, descending, offset,
                fetch, topN);
    }

    @Override
    public RelDataType deriveRowType() {
        RelDataType full = table.getRowType();
        if (!keysOnly) {
            return full;
        }
        return getCluster().getTypeFactory().builder().add(full.getFieldList().get(0)).build();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .itemIf("keys", predicate, predicate != null)
                .itemIf("values", values, values != null)
                .itemIf("keysOnly", true, keysOnly)
                .itemIf("desc", true, descending)
                .itemIf("offset", offset, offset != null)
                .itemIf("fetch", fetch, fetch != null)
                .itemIf("topN", topN, topN != null);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double rows = table.getRowCount();
        if (predicate != null) {
            double selected = 0;
            for (KeyRange r : predicate.ranges()) {
                selected += r.isPoint() ? 1 : rows * (r.prefix() ? 0.05 : 0.25);
            }
            rows = Math.min(rows, selected);
        }
        if (values != null) {
            rows *= values.selectivity();
        }
        KeyOperand limit = topN != null ? topN.fetch() : fetch;
        KeyOperand skipped = topN != null ? topN.offset() : offset;
        if (limit != null) {
            long n = limit.literal() instanceof Number num ? num.longValue() : 100;
            long skip = skipped != null && skipped.literal() instanceof Number o ? o.longValue() : 0;
            rows = Math.min(rows, n + skip);
        }
        return Math.max(rows, 1);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = estimateRowCount(mq);
        // Value tests read every row of the ranges but decode only the rows they keep.
        double read = topN != null ? table.getRowCount() : values == null ? rows : rows / values.selectivity();
        double cpu = read * (keysOnly && values == null ? 0.5 : 1.0);
        return planner.getCostFactory().makeCost(rows, cpu, rows);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
                keysOnly ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY);
        Expression source = implementor.stash(
                new KvScanSource(def, predicate, values, keysOnly, descending, offset, fetch, topN),
                ScannableTable.class);
        return implementor.result(physType, Blocks.toBlock(
                Expressions.call(source, BuiltInMethod.SCANNABLE_TABLE_SCAN.method, DataContext.ROOT)));
    }
}
