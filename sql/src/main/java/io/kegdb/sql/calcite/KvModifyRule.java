package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableModify;

/** Turns Calcite's logical TableModify on a key/value table into a {@link KvTableModify}. */
final class KvModifyRule extends ConverterRule {

    private final boolean upsert;

    private KvModifyRule(Config config, boolean upsert) {
        super(config);
        this.upsert = upsert;
    }

    /** {@code upsert}: the statement was UPSERT, which Calcite plans as INSERT. */
    static KvModifyRule create(boolean upsert) {
        return Config.INSTANCE
                .withConversion(LogicalTableModify.class,
                        (LogicalTableModify m) -> m.getTable().unwrap(KvTable.class) != null,
                        Convention.NONE, EnumerableConvention.INSTANCE, upsert ? "KvModifyRule:upsert" : "KvModifyRule")
                .withRuleFactory(c -> new KvModifyRule(c, upsert))
                .toRule(KvModifyRule.class);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableModify modify = (LogicalTableModify) rel;
        KvTable table = modify.getTable().unwrap(KvTable.class);
        RelNode input = convert(modify.getInput(), modify.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
        return new KvTableModify(modify.getCluster(), modify.getTraitSet().replace(EnumerableConvention.INSTANCE),
                modify.getTable(), modify.getCatalogReader(), input, modify.getOperation(),
                modify.getUpdateColumnList(), modify.getSourceExpressionList(), modify.isFlattened(), table.def, upsert);
    }
}
