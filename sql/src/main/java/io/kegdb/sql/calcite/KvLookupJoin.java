package io.kegdb.sql.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * A join on the key of a key/value table, run as one lookup of that table per row of the other input (the
 * outer): the outer rows' join columns, encoded as keys, are read a batch of rows at a time with one
 * multi-get (a presence check per row when only the key is needed), through the statement's read view. The looked-up table's own key conditions still
 * hold: a key outside them is not read. With {@code keepOuter} an outer row without a match comes out with
 * nulls (the outer side of a LEFT or RIGHT join). Output columns are in the join's order: the outer's first
 * unless the looked-up table was the join's left input.
 */
final class KvLookupJoin extends SingleRel implements EnumerableRel {

    /**
     * What a lookup costs against a scan's step over one pair (1): a get finds the key in the keydir's hash
     * index and reads its record, where a scan reads records already located in order.
     */
    static final double LOOKUP_COST = 2;

    /** The looked-up table as the planner had it: its table, key conditions and whether only keys are read. */
    final KvScan inner;
    final int outerKey;
    final boolean innerFirst;
    final boolean keepOuter;

    KvLookupJoin(RelOptCluster cluster, RelTraitSet traits, RelNode outer, KvScan inner, int outerKey,
                 boolean innerFirst, boolean keepOuter, RelDataType rowType) {
        super(cluster, traits, outer);
        this.inner = inner;
        this.outerKey = outerKey;
        this.innerFirst = innerFirst;
        this.keepOuter = keepOuter;
        this.rowType = rowType;
    }

    /** Rows of {@code outer} (in the enumerable convention) joined with the rows of {@code inner} they find. */
    static KvLookupJoin create(RelNode outer, KvScan inner, int outerKey, boolean innerFirst, boolean keepOuter) {
        RelOptCluster cluster = outer.getCluster();
        JoinRelType type = !keepOuter ? JoinRelType.INNER : innerFirst ? JoinRelType.RIGHT : JoinRelType.LEFT;
        RelDataType rowType = SqlValidatorUtil.deriveJoinRowType(innerFirst ? inner.getRowType() : outer.getRowType(),
                innerFirst ? outer.getRowType() : inner.getRowType(), type, cluster.getTypeFactory(), null, List.of());
        return new KvLookupJoin(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE)
                .replace(orders(outer, inner, outerKey, innerFirst, keepOuter)), outer, inner, outerKey, innerFirst,
                keepOuter, rowType);
    }

    /**
     * The orders the rows come out in: the outer's, as they keep it (its columns shifted past the inner's when
     * the inner comes first), and for an inner join, where the outer is ordered by its join column first, the
     * same order by the inner's key, which equals it on every row. So an {@code ORDER BY} either side's key with
     * a limit above needs no sort, and the limit stops the outer's scan.
     */
    private static List<RelCollation> orders(RelNode outer, KvScan inner, int outerKey, boolean innerFirst,
                                             boolean keepOuter) {
        int shift = innerFirst ? inner.getRowType().getFieldCount() : 0;
        int innerKey = innerFirst ? 0 : outer.getRowType().getFieldCount();
        List<RelCollation> out = new ArrayList<>();
        for (RelCollation c : outer.getTraitSet().getTraits(RelCollationTraitDef.INSTANCE)) {
            if (c.getFieldCollations().isEmpty()) {
                continue;
            }
            out.add(RelCollations.shift(c, shift));
            RelFieldCollation first = c.getFieldCollations().get(0);
            if (!keepOuter && first.getFieldIndex() == outerKey) {
                // The leading field only (no row of an inner join has a NULL there).
                out.add(RelCollations.of(first.withFieldIndex(innerKey)));
            }
        }
        return out.isEmpty() ? List.of(RelCollations.EMPTY) : out;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new KvLookupJoin(getCluster(), traitSet, sole(inputs), inner, outerKey, innerFirst, keepOuter,
                rowType);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .item("table", inner.getTable().getQualifiedName())
                .item("key", "$" + outerKey)
                .itemIf("keys", inner.predicate, inner.predicate != null)
                .itemIf("values", inner.values, inner.values != null)
                .itemIf("keysOnly", true, inner.keysOnly)
                .itemIf("keepOuter", true, keepOuter)
                .itemIf("innerFirst", true, innerFirst);
    }

    /** Each outer row finds at most one row (the key is unique), and never more rows than the table's range. */
    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double outer = mq.getRowCount(getInput());
        return keepOuter ? outer : Math.max(1, Math.min(outer, inner.estimateRowCount(mq)));
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double lookups = mq.getRowCount(getInput()) * LOOKUP_COST;
        return planner.getCostFactory().makeCost(lookups, lookups, lookups);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result outer = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        Expression outerRows = outer.physType.convertTo(builder.append("outer", outer.block), JavaRowFormat.ARRAY);
        Expression source = implementor.stash(new KvLookupSource(inner.def, inner.predicate, inner.values,
                inner.keysOnly, outerKey, innerFirst, keepOuter), Function2.class);
        Expression joined;
        try {
            joined = Expressions.call(source, Function2.class.getMethod("apply", Object.class, Object.class),
                    outerRows, DataContext.ROOT);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        builder.add(Expressions.return_(null, Expressions.convert_(joined, Enumerable.class)));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        return implementor.result(physType, builder.toBlock());
    }
}
