package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An aggregate over a scan (directly or through a projection of its columns) becomes a {@link KvAggregate}, the
 * scan computing it over stored bytes, when it has no GROUP BY or groups on the key or the value, and every call is
 * COUNT(*), COUNT(col), COUNT(DISTINCT col), SUM(col), AVG(col), MIN(col) or MAX(col) of a plain column (no
 * FILTER, no WITHIN GROUP; SUM and AVG of INTEGER, BIGINT, DOUBLE and DECIMAL, not DISTINCT) and the scan has
 * no limit. Conditions the scan does not take stay a Calcite filter between, so such an aggregate is Calcite's
 * too. AVG(x) becomes SUM(x) / COUNT(x) in a projection above, built as Calcite's own reduction
 * ({@code AggregateReduceFunctionsRule}) builds it, so its type, rounding and NULL are Calcite's.
 */
@SuppressWarnings("deprecation")
final class KvAggregateScanRule extends RelOptRule {

    static final KvAggregateScanRule DIRECT = new KvAggregateScanRule(false);
    static final KvAggregateScanRule THROUGH_PROJECT = new KvAggregateScanRule(true);

    private final boolean throughProject;

    private KvAggregateScanRule(boolean throughProject) {
        super(KvAggregateRule.aggregateOverScan(throughProject),
                "KvAggregateScanRule" + (throughProject ? ":project" : ""));
        this.throughProject = throughProject;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        Project project = throughProject ? call.rel(1) : null;
        KvScan scan = call.rel(throughProject ? 2 : 1);
        if (scan.limited() || scan.descending || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return;
        }
        int[] columns = columns(project, scan);
        if (columns == null) {
            return;
        }
        List<Integer> groups = new ArrayList<>();
        for (int field : aggregate.getGroupSet()) {
            if (columns[field] < 0) {
                return;
            }
            groups.add(columns[field]);
        }
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        int groupCount = aggregate.getGroupCount();
        List<AggregateCall> calls = new ArrayList<>();
        Map<AggregateCall, RexNode> mapping = new HashMap<>();
        List<RexNode> results = new ArrayList<>();
        for (AggregateCall a : aggregate.getAggCallList()) {
            results.add(a.getAggregation().getKind() == SqlKind.AVG && !a.isDistinct()
                    ? average(aggregate, a, calls, mapping)
                    : rexBuilder.addAggCall(a, groupCount, calls, mapping, aggregate.getInput()::fieldIsNullable));
        }
        List<StoredAggregate> stored = new ArrayList<>();
        for (AggregateCall a : calls) {
            StoredAggregate s = stored(a, columns, scan.def, aggregate.getInput().getRowType());
            if (s == null) {
                return;
            }
            stored.add(s);
        }
        if (groups.isEmpty() && !stored.isEmpty()
                && stored.stream().allMatch(s -> s.kind() == StoredAggregate.Kind.ROWS)) {
            return; // a count of keys: KvCount counts them without reading a pair
        }
        boolean sameCalls = calls.equals(aggregate.getAggCallList());
        RelDataType rowType = sameCalls ? aggregate.getRowType()
                : aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
                        aggregate.getGroupSets(), calls).getRowType();
        RelNode computed = KvAggregate.of(scan, rowType, groups, stored);
        if (!sameCalls) {
            List<RexNode> exprs = new ArrayList<>();
            for (int i = 0; i < groupCount; i++) {
                exprs.add(rexBuilder.makeInputRef(computed, i));
            }
            exprs.addAll(results);
            computed = LogicalProject.create(computed, List.of(), exprs, aggregate.getRowType(), Set.of());
        }
        call.transformTo(computed);
    }

    /**
     * The scan column (0 key, 1 value) each field of the aggregate's input is, -1 for a literal; null if the
     * projection computes anything else (an expression stays Calcite's, with whatever errors it may raise).
     */
    private static int[] columns(Project project, KvScan scan) {
        int[] scanColumns = scan.keysOnly ? new int[] {0} : new int[] {0, 1};
        if (project == null) {
            return scanColumns;
        }
        int[] out = new int[project.getProjects().size()];
        for (int i = 0; i < out.length; i++) {
            RexNode e = project.getProjects().get(i);
            if (e instanceof RexInputRef ref) {
                out[i] = scanColumns[ref.getIndex()];
            } else if (e instanceof RexLiteral) {
                out[i] = -1;
            } else {
                return null;
            }
        }
        return out;
    }

    /**
     * {@code AVG(x)} as {@code CAST(CAST(SUM(x) AS t) / COUNT(x) AS t)}, t the AVG's type, with SUM and COUNT
     * added to {@code calls}: what Calcite's reduction of AVG makes of it.
     */
    private static RexNode average(Aggregate aggregate, AggregateCall avg, List<AggregateCall> calls,
                                   Map<AggregateCall, RexNode> mapping) {
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        SqlParserPos pos = avg.getParserPosition();
        int groupCount = aggregate.getGroupCount();
        AggregateCall sum = AggregateCall.create(pos, SqlStdOperatorTable.SUM, false, avg.isApproximate(),
                avg.ignoreNulls(), avg.rexList, avg.getArgList(), avg.filterArg, avg.distinctKeys, avg.collation,
                groupCount, aggregate.getInput(), null, null);
        AggregateCall count = AggregateCall.create(pos, SqlStdOperatorTable.COUNT, false, avg.isApproximate(),
                avg.ignoreNulls(), avg.rexList, avg.getArgList(), avg.filterArg, avg.distinctKeys, avg.collation,
                groupCount, aggregate.getInput(), null, null);
        RexNode numerator = rexBuilder.addAggCall(sum, groupCount, calls, mapping,
                aggregate.getInput()::fieldIsNullable);
        RexNode denominator = rexBuilder.addAggCall(count, groupCount, calls, mapping,
                aggregate.getInput()::fieldIsNullable);
        RelDataType type = aggregate.getCluster().getTypeFactory().createTypeWithNullability(avg.getType(),
                numerator.getType().isNullable());
        numerator = rexBuilder.ensureType(type, numerator, true);
        return rexBuilder.makeCast(pos, avg.getType(),
                rexBuilder.makeCall(pos, SqlStdOperatorTable.DIVIDE, numerator, denominator));
    }

    /** The call computed on stored bytes, or null if the scan cannot compute it. */
    private static StoredAggregate stored(AggregateCall a, int[] columns, TableDef def, RelDataType input) {
        if (a.filterArg >= 0 || a.isApproximate() || !a.collation.getFieldCollations().isEmpty()
                || a.distinctKeys != null || !a.rexList.isEmpty() || a.getArgList().size() > 1) {
            return null;
        }
        int column = a.getArgList().isEmpty() ? -1 : columns[a.getArgList().get(0)];
        if (!a.getArgList().isEmpty() && column < 0) {
            return null;
        }
        ColumnType type = column == 0 ? def.keyType() : def.valueType();
        int scale = column == 0 ? def.keyScale() : def.valueScale();
        return switch (a.getAggregation().getKind()) {
            case COUNT -> column != 1 ? new StoredAggregate(StoredAggregate.Kind.ROWS, 0)
                    : new StoredAggregate(a.isDistinct() ? StoredAggregate.Kind.COUNT_DISTINCT
                            : StoredAggregate.Kind.COUNT, 1);
            case SUM -> column >= 0 && !a.isDistinct() && StoredAggregate.summable(type)
                    && sumTypeIs(a.getType(), type, scale) ? new StoredAggregate(StoredAggregate.Kind.SUM, column)
                    : null;
            case MIN, MAX -> column >= 0 && (column == 0 || StoredAggregate.comparable(type))
                    && a.getType().getSqlTypeName() == input.getFieldList().get(a.getArgList().get(0)).getType()
                    .getSqlTypeName()
                    ? new StoredAggregate(a.getAggregation().getKind() == SqlKind.MIN ? StoredAggregate.Kind.MIN
                            : StoredAggregate.Kind.MAX, column)
                    : null;
            default -> null;
        };
    }

    /**
     * Whether SUM's derived type is the one {@link StoredAggregate}'s sums produce (KegTypeSystem's): BIGINT for
     * INTEGER, DECIMAL(38, 0) for BIGINT, DOUBLE for DOUBLE, DECIMAL(38, s) for DECIMAL(p, s).
     */
    private static boolean sumTypeIs(RelDataType sum, ColumnType column, int scale) {
        return switch (column) {
            case INTEGER -> sum.getSqlTypeName() == SqlTypeName.BIGINT;
            case BIGINT -> sum.getSqlTypeName() == SqlTypeName.DECIMAL && sum.getScale() == 0;
            case DOUBLE -> sum.getSqlTypeName() == SqlTypeName.DOUBLE;
            case DECIMAL -> sum.getSqlTypeName() == SqlTypeName.DECIMAL && sum.getScale() == scale;
            default -> false;
        };
    }
}
