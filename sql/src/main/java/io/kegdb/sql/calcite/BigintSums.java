package io.kegdb.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SUM of a BIGINT is a DECIMAL and AVG of one a DOUBLE ({@link KegTypeSystem}), but Calcite's generated code
 * adds the argument into the accumulator as it comes (a BigDecimal cannot take a long), and the SUM an AVG is
 * reduced to would be such a SUM. So the BIGINT argument of every SUM and $SUM0 whose result is not BIGINT is
 * cast to DECIMAL(19, 0), and of every AVG to DOUBLE, in aggregates and window aggregates, sub-queries
 * included. The cast argument gives each call the type it had (rules that rebuild a call derive its type
 * again from its argument). Run once on the converted plan, before the rules.
 */
final class BigintSums extends RelHomogeneousShuttle {

    private final RexBuilder rexBuilder;
    private final RelDataType decimal;
    private final RelDataType dbl;
    private final RexShuttle windows;

    private BigintSums(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
        this.decimal = rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 19, 0);
        this.dbl = rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DOUBLE);
        this.windows = new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                RexOver visited = (RexOver) super.visitOver(over);
                if (!needsWidening(visited.getAggOperator().getKind(), visited.getOperands(), visited.getType())) {
                    return visited;
                }
                RexWindow w = visited.getWindow();
                return rexBuilder.makeOver(visited.getParserPosition(), visited.getType(), visited.getAggOperator(),
                        List.of(widen(visited.getAggOperator().getKind(), visited.getOperands().get(0))),
                        w.partitionKeys, w.orderKeys,
                        w.getLowerBound(), w.getUpperBound(), w.getExclude(), w.isRows(), true, false,
                        visited.isDistinct(), visited.ignoreNulls());
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RelNode rel = subQuery.rel.accept(BigintSums.this);
                return rel == subQuery.rel ? subQuery : subQuery.clone(rel);
            }
        };
    }

    /** {@code rel} with the arguments of its BIGINT sums and averages cast to DECIMAL. */
    static RelNode apply(RelNode rel, RexBuilder rexBuilder) {
        return rel.accept(new BigintSums(rexBuilder));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other).accept(windows);
        return rel instanceof LogicalAggregate aggregate ? widen(aggregate) : rel;
    }

    private static boolean needsWidening(SqlKind kind, List<RexNode> operands, RelDataType type) {
        return (kind == SqlKind.SUM || kind == SqlKind.SUM0 || kind == SqlKind.AVG) && operands.size() == 1
                && operands.get(0).getType().getSqlTypeName() == SqlTypeName.BIGINT
                && type.getSqlTypeName() != SqlTypeName.BIGINT;
    }

    /** The operand of a SUM ({@code DECIMAL(19, 0)}) or an AVG ({@code DOUBLE}) of a BIGINT. */
    private RexNode widen(SqlKind kind, RexNode operand) {
        return rexBuilder.makeCast(rexBuilder.getTypeFactory().createTypeWithNullability(
                kind == SqlKind.AVG ? dbl : decimal, operand.getType().isNullable()), operand);
    }

    /** The aggregate over a projection that adds a widened copy of each BIGINT field it sums or averages. */
    private RelNode widen(LogicalAggregate aggregate) {
        RelNode input = aggregate.getInput();
        List<RexNode> projects = new ArrayList<>(rexBuilder.identityProjects(input.getRowType()));
        Map<List<Object>, Integer> copies = new HashMap<>();
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            List<RexNode> operands = call.getArgList().stream()
                    .map(i -> (RexNode) rexBuilder.makeInputRef(input, i)).toList();
            if (!needsWidening(call.getAggregation().getKind(), operands, call.getType())) {
                calls.add(call);
                continue;
            }
            SqlKind kind = call.getAggregation().getKind() == SqlKind.AVG ? SqlKind.AVG : SqlKind.SUM;
            int copy = copies.computeIfAbsent(List.of(kind, call.getArgList().get(0)), field -> {
                projects.add(widen(kind, operands.get(0)));
                return projects.size() - 1;
            });
            calls.add(call.withArgList(List.of(copy)));
        }
        if (copies.isEmpty()) {
            return aggregate;
        }
        RelNode project = LogicalProject.create(input, List.of(), projects, (List<String>) null, Set.of());
        return aggregate.copy(aggregate.getTraitSet(), project, aggregate.getGroupSet(), aggregate.getGroupSets(),
                calls);
    }
}
