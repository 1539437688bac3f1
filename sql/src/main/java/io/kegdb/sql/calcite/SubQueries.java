package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;
import java.util.Set;

/**
 * What the expressions of a projection or filter that still hold sub-queries mean for the KegDB rules that run
 * before Calcite rewrites those sub-queries into joins: which input fields they read (through correlation
 * variables too) and whether they will become joins.
 */
final class SubQueries {

    private SubQueries() {
    }

    /**
     * The input fields {@code exprs} read: their input references, and the fields a correlated sub-query among
     * them reads of the row through {@code variables} (the correlations the relation holding them defines).
     */
    static ImmutableBitSet inputFields(List<RexNode> exprs, Set<CorrelationId> variables) {
        ImmutableBitSet.Builder used = RelOptUtil.InputFinder.bits(exprs, null).rebuild();
        if (variables.isEmpty()) {
            return used.build();
        }
        RexVisitorImpl<Void> finder = new RexVisitorImpl<>(true) {
            @Override
            public Void visitSubQuery(RexSubQuery subQuery) {
                for (CorrelationId id : variables) {
                    used.addAll(RelOptUtil.correlationColumns(id, subQuery.rel));
                }
                return super.visitSubQuery(subQuery);
            }
        };
        exprs.forEach(e -> e.accept(finder));
        return used.build();
    }

    /**
     * True if {@code exprs} hold a sub-query or a correlation variable: Calcite rewrites both into joins, which
     * do not keep their input's order.
     */
    static boolean becomeJoins(List<RexNode> exprs) {
        for (RexNode e : exprs) {
            if (RexUtil.SubQueryFinder.find(e) != null || RexUtil.containsCorrelation(e)) {
                return true;
            }
        }
        return false;
    }
}
