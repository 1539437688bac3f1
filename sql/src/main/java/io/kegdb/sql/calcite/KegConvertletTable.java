package io.kegdb.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Calcite's convertlets, but a CASE keeps no nullability-narrowing CAST in its branches.
 *
 * <p>Calcite types {@code CASE WHEN v IS NOT NULL THEN v ELSE 100 END} (and so {@code COALESCE(v, 100)}, which
 * the validator turns into it) NOT NULL, and casts the nullable branch value to its NOT NULL type:
 * {@code CASE(IS NOT NULL($1), CAST($1):DOUBLE NOT NULL, 100)}. A comparison over that CASE is later pushed into
 * its branches and the CASE made an AND, {@code IS NOT NULL($1) AND CAST($1):DOUBLE NOT NULL <= 2}; the
 * simplifier then drops the IS NOT NULL, deeming the comparison null when {@code $1} is (it takes a CAST to
 * be null when its operand is), while the generated code never makes a NOT NULL value null: a NULL row
 * passed. Here the branches keep their nullable values, the CASE is typed nullable, and one CAST on the whole
 * CASE gives it the validator's NOT NULL type (it cannot be null there: every branch is guarded or not null).
 * A branch value that is also widened to the CASE's type ({@code COALESCE} of an INTEGER and a DOUBLE) is two
 * casts, the narrowing one inside the widening one; both keep the value nullable.
 */
final class KegConvertletTable implements SqlRexConvertletTable {

    static final KegConvertletTable INSTANCE = new KegConvertletTable();

    private KegConvertletTable() {
    }

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (call instanceof SqlCase) {
            return KegConvertletTable::convertCase;
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }

    private static RexNode convertCase(SqlRexContext cx, SqlCall call) {
        RexNode converted = StandardConvertletTable.INSTANCE.convertCase(cx, (SqlCase) call);
        if (!(converted instanceof RexCall kase) || kase.getKind() != SqlKind.CASE || kase.getType().isNullable()) {
            return converted;
        }
        RexBuilder rexBuilder = cx.getRexBuilder();
        RelDataType nullable = rexBuilder.getTypeFactory().createTypeWithNullability(kase.getType(), true);
        List<RexNode> operands = new ArrayList<>(kase.getOperands());
        boolean narrowed = false;
        for (int i = 0; i < operands.size(); i++) {
            if (RexUtil.isCasePredicate(kase, i)) {
                continue;
            }
            RexNode value = unnarrowed(rexBuilder, operands.get(i));
            if (value == operands.get(i)) {
                continue;
            }
            operands.set(i, SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), value.getType(), nullable)
                    ? value : rexBuilder.makeAbstractCast(kase.getParserPosition(), nullable, value, false));
            narrowed = true;
        }
        if (!narrowed) {
            return converted;
        }
        RexNode wide = rexBuilder.makeCall(kase.getParserPosition(), nullable, SqlStdOperatorTable.CASE, operands);
        return rexBuilder.makeAbstractCast(kase.getParserPosition(), kase.getType(), wide, false);
    }

    /**
     * {@code e} without the casts in it that narrow a nullable value to NOT NULL: each such cast is made
     * nullable, or dropped where it only changed the nullability. A branch value is often two casts, the
     * narrowing one COALESCE is rewritten with ({@code CAST NOT NULL(v)}) inside the widening one to the CASE's
     * type: {@code CAST(CAST($1):INTEGER NOT NULL):DOUBLE NOT NULL}, which the simplifier later merges into one
     * {@code CAST($1):DOUBLE NOT NULL}. {@code e} itself if it has none.
     */
    private static RexNode unnarrowed(RexBuilder rexBuilder, RexNode e) {
        if (!(e instanceof RexCall cast) || cast.getKind() != SqlKind.CAST || cast.getOperands().size() != 1
                || e.getType().isNullable()) {
            return e;
        }
        RexNode operand = unnarrowed(rexBuilder, cast.getOperands().get(0));
        if (!operand.getType().isNullable()) {
            return e; // the value is not null: the cast narrows nothing
        }
        RelDataType nullable = rexBuilder.getTypeFactory().createTypeWithNullability(e.getType(), true);
        return SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), operand.getType(), nullable) ? operand
                : rexBuilder.makeAbstractCast(cast.getParserPosition(), nullable, operand, false);
    }
}
