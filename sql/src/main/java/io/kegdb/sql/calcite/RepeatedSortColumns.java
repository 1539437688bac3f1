package io.kegdb.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Litmus;

/**
 * {@code SELECT k, k FROM t ORDER BY k}: an ORDER BY name that several select items carry, all of them the same
 * expression, sorts by that expression (as H2, SQLite and PostgreSQL do); Calcite's validator calls the name
 * ambiguous. Such a name becomes the ordinal of its first select item, which means the same. Items that are
 * different expressions under one name stay ambiguous (42000). The statement is changed in place.
 */
final class RepeatedSortColumns extends SqlBasicVisitor<Void> {

    private RepeatedSortColumns() {
    }

    static void resolveIn(SqlNode statement) {
        statement.accept(new RepeatedSortColumns());
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select) {
            resolve(select.getSelectList(), orderBy.orderList);
        } else if (call instanceof SqlSelect select && select.getOrderList() != null) {
            resolve(select.getSelectList(), select.getOrderList());
        }
        return super.visit(call);
    }

    private static void resolve(SqlNodeList selectList, SqlNodeList orderList) {
        if (selectList == null) {
            return;
        }
        for (int i = 0; i < orderList.size(); i++) {
            SqlNode item = orderList.get(i);
            SqlNode key = item;
            while (key instanceof SqlBasicCall c && (c.getKind() == SqlKind.DESCENDING
                    || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
                key = c.operand(0);
            }
            if (!(key instanceof SqlIdentifier id) || !id.isSimple()) {
                continue;
            }
            int first = sameItems(selectList, id.getSimple());
            if (first >= 0) {
                SqlNode ordinal = SqlLiteral.createExactNumeric(Integer.toString(first + 1), SqlParserPos.ZERO);
                orderList.set(i, key == item ? ordinal : replace(item, key, ordinal));
            }
        }
    }

    /** The index of the first select item named {@code name} if two or more are, all the same expression; else -1. */
    private static int sameItems(SqlNodeList selectList, String name) {
        int first = -1;
        int count = 0;
        SqlNode expr = null;
        for (int j = 0; j < selectList.size(); j++) {
            SqlNode sel = selectList.get(j);
            SqlNode value = sel.getKind() == SqlKind.AS ? ((SqlCall) sel).operand(0) : sel;
            String alias = sel.getKind() == SqlKind.AS ? ((SqlIdentifier) ((SqlCall) sel).operand(1)).getSimple()
                    : value instanceof SqlIdentifier v ? v.names.get(v.names.size() - 1) : null;
            if (!name.equals(alias)) {
                continue;
            }
            if (expr != null && !expr.equalsDeep(value, Litmus.IGNORE)) {
                return -1;
            }
            if (expr == null) {
                expr = value;
                first = j;
            }
            count++;
        }
        return count >= 2 ? first : -1;
    }

    /** {@code item} (DESC / NULLS FIRST / NULLS LAST around {@code key}) with {@code key} replaced. */
    private static SqlNode replace(SqlNode item, SqlNode key, SqlNode by) {
        SqlBasicCall c = (SqlBasicCall) item;
        if (c.operand(0) == key) {
            c.setOperand(0, by);
        } else {
            replace(c.operand(0), key, by);
        }
        return item;
    }
}
