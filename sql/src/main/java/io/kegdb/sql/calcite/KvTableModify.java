package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.TableDef;
import org.apache.calcite.DataContext;
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
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

import java.util.List;

/**
 * INSERT, UPSERT, UPDATE or DELETE of a key/value table: the input rows are computed by the rest of the
 * plan and handed to a {@link KvModifier}, which writes them into the statement's overlay and returns
 * the row count. (Calcite's own TableModify cannot update and deletes by object identity.)
 */
final class KvTableModify extends TableModify implements EnumerableRel {

    private static final java.lang.reflect.Method APPLY;

    static {
        try {
            APPLY = Function2.class.getMethod("apply", Object.class, Object.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final TableDef def;
    final boolean upsert;

    KvTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
                  RelNode input, Operation operation, List<String> updateColumns, List<RexNode> sourceExpressions,
                  boolean flattened, TableDef def, boolean upsert) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumns, sourceExpressions, flattened);
        this.def = def;
        this.upsert = upsert;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new KvTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened(), def, upsert);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).itemIf("upsert", true, upsert);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        Expression rows = builder.append("rows", child.block);
        if (child.physType.getFormat() != JavaRowFormat.ARRAY) {
            rows = builder.append("arrayRows", child.physType.convertTo(rows, JavaRowFormat.ARRAY));
        }
        KvModifier modifier = new KvModifier(def, getOperation(), upsert, getUpdateColumnList());
        @SuppressWarnings("rawtypes")
        Expression target = implementor.stash(modifier, Function2.class);
        builder.add(Expressions.return_(null, Expressions.convert_(
                Expressions.call(target, APPLY, DataContext.ROOT, rows), Enumerable.class)));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.SCALAR);
        return implementor.result(physType, builder.toBlock());
    }
}
