package io.kegdb.sql.calcite;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.List;

/**
 * The literals of a VALUES made of its columns' types. SQL-to-relational conversion may leave a literal of
 * its own type in a column coerced to another (19.5 as a DECIMAL in a DOUBLE column of
 * {@code INSERT ... VALUES (19.5, ...), (NULL, ...)}); Calcite's predicates of such a VALUES then build a
 * search argument of the column's type over the literal's value, which fails, and the statement with it
 * ("Unable to implement KvTableModify"). A literal whose value the column's type cannot hold as a literal
 * stays as it is.
 */
final class ValuesLiterals extends RelHomogeneousShuttle {

    private ValuesLiterals() {
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new ValuesLiterals());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (!(rel instanceof LogicalValues values)) {
            return rel;
        }
        RexBuilder rexBuilder = values.getCluster().getRexBuilder();
        List<RelDataType> types = values.getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        boolean changed = false;
        ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
        for (List<RexLiteral> tuple : values.getTuples()) {
            ImmutableList.Builder<RexLiteral> row = ImmutableList.builder();
            for (int i = 0; i < tuple.size(); i++) {
                RexLiteral literal = tuple.get(i);
                RexLiteral typed = ofType(rexBuilder, literal, types.get(i));
                changed |= typed != literal;
                row.add(typed);
            }
            tuples.add(row.build());
        }
        return changed ? LogicalValues.create(values.getCluster(), values.getRowType(), tuples.build()) : values;
    }

    private static RexLiteral ofType(RexBuilder rexBuilder, RexLiteral literal, RelDataType type) {
        if (literal.isNull() || SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), literal.getType(), type)) {
            return literal;
        }
        try {
            RexNode typed = rexBuilder.makeLiteral(literal.getValueAs(Comparable.class),
                    rexBuilder.getTypeFactory().createTypeWithNullability(type, false), false);
            return typed instanceof RexLiteral l ? l : literal;
        } catch (RuntimeException | AssertionError e) {
            return literal;
        }
    }
}
