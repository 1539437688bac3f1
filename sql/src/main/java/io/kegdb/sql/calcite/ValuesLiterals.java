package io.kegdb.sql.calcite;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.List;

/**
 * The literals of a VALUES made of its columns' types, in two steps.
 *
 * <p>Before validation ({@link #beforeConversion}): a column holding both approximate ({@code 1.0E300}) and
 * exact ({@code 1.5}) numeric literals, whose common type is DOUBLE anyway, gets its exact literals written as
 * approximate ones. Calcite's conversion keeps each literal's own value class (a Double for the one, a BigDecimal
 * for the other) in the one column of its VALUES and fails comparing them while it derives the VALUES' sort
 * order (a ClassCastException: {@code INSERT INTO t VALUES (1, 1.0E300), (2, 1.5)} into a DOUBLE column).
 *
 * <p>After conversion ({@link #apply}): SQL-to-relational conversion may leave a literal of its own type in a
 * column coerced to another (19.5 as a DECIMAL in a DOUBLE column of
 * {@code INSERT ... VALUES (19.5, ...), (NULL, ...)}); Calcite's predicates of such a VALUES then build a
 * search argument of the column's type over the literal's value, which fails, and the statement with it
 * ("Unable to implement KvTableModify"). A literal whose value the column's type cannot hold as a literal
 * stays as it is.
 */
final class ValuesLiterals extends RelHomogeneousShuttle {

    private ValuesLiterals() {
    }

    /** Rewrites, in place, the exact numeric literals of the VALUES columns that also hold approximate ones. */
    static void beforeConversion(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.VALUES) {
                    approximateColumns(call);
                }
                return super.visit(call);
            }
        });
    }

    private static void approximateColumns(SqlCall values) {
        int width = values.getOperandList().stream().mapToInt(row -> row.getKind() == SqlKind.ROW
                ? ((SqlCall) row).operandCount() : 1).max().orElse(0);
        for (int column = 0; column < width; column++) {
            boolean approximate = false;
            boolean exact = false;
            for (SqlNode row : values.getOperandList()) {
                SqlNumericLiteral n = numericLiteral(row, column);
                approximate |= n != null && !n.isExact();
                exact |= n != null && n.isExact();
            }
            if (!approximate || !exact) {
                continue;
            }
            for (SqlNode row : values.getOperandList()) {
                if (row.getKind() != SqlKind.ROW || column >= ((SqlCall) row).operandCount()) {
                    continue;
                }
                SqlCall holder = (SqlCall) row;
                int at = column;
                if (holder.operand(at).getKind() == SqlKind.MINUS_PREFIX
                        || holder.operand(at).getKind() == SqlKind.PLUS_PREFIX) {
                    holder = holder.operand(at);
                    at = 0;
                }
                holder.setOperand(at, approximated(holder.operand(at)));
            }
        }
    }

    /** {@code node} as an approximate literal if it is an exact numeric one; else itself. */
    private static SqlNode approximated(SqlNode node) {
        return node instanceof SqlNumericLiteral n && n.isExact()
                ? SqlLiteral.createApproxNumeric(n.bigDecimalValue().toString(), n.getParserPosition()) : node;
    }

    /** The numeric literal (under a unary plus or minus, if any) in {@code column} of a VALUES row, or null. */
    private static SqlNumericLiteral numericLiteral(SqlNode row, int column) {
        SqlNode item = row.getKind() != SqlKind.ROW ? (column == 0 ? row : null)
                : column < ((SqlCall) row).operandCount() ? ((SqlCall) row).operand(column) : null;
        if (item != null && (item.getKind() == SqlKind.MINUS_PREFIX || item.getKind() == SqlKind.PLUS_PREFIX)) {
            item = ((SqlCall) item).operand(0);
        }
        return item instanceof SqlNumericLiteral n ? n : null;
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
