package io.kegdb.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * In GROUP BY and ORDER BY only a whole number written without a fraction is a column ordinal, as in H2 and
 * SQLite: {@code GROUP BY -0.18}, {@code ORDER BY 2.0} or {@code ORDER BY 1e0} group or sort by that constant.
 * Calcite takes any numeric literal there for an ordinal (truncated: -0.18 is 0, out of range), so such a
 * literal is wrapped in a unary plus, which keeps its value and type and is not a literal. The parsed
 * statement is changed in place.
 */
final class OrdinalLiterals extends SqlBasicVisitor<Void> {

    private OrdinalLiterals() {
    }

    static void rewrite(SqlNode statement) {
        statement.accept(new OrdinalLiterals());
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            wrap(select.getGroup());
            wrap(select.getOrderList());
        } else if (call instanceof SqlOrderBy orderBy) {
            wrap(orderBy.orderList);
        }
        return super.visit(call);
    }

    private static void wrap(SqlNodeList items) {
        if (items == null) {
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            SqlNode replaced = rewritten(items.get(i));
            if (replaced != null) {
                items.set(i, replaced);
            }
        }
    }

    /** The replacement of {@code item}, or null; a DESC / NULLS FIRST / NULLS LAST is rewritten in place. */
    private static SqlNode rewritten(SqlNode item) {
        if (item instanceof SqlCall c && (c.getKind() == SqlKind.DESCENDING || c.getKind() == SqlKind.NULLS_FIRST
                || c.getKind() == SqlKind.NULLS_LAST)) {
            SqlNode inner = rewritten(c.operand(0));
            if (inner != null) {
                c.setOperand(0, inner);
            }
            return null;
        }
        return expression(item);
    }

    /** The unary plus of {@code node} if it is a numeric literal that is not a whole number, else null. */
    private static SqlNode expression(SqlNode node) {
        if (node instanceof SqlNumericLiteral n && !n.isInteger()) {
            return SqlStdOperatorTable.UNARY_PLUS.createCall(n.getParserPosition(), n);
        }
        return null;
    }
}
