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
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code SELECT k, k FROM t ORDER BY k}: an ORDER BY name that several select items carry, all of them the same
 * expression, sorts by that expression (as H2, SQLite and PostgreSQL do); Calcite's validator calls the name
 * ambiguous. Such a name becomes the ordinal of its first select item, which means the same. Items that are
 * different expressions under one name stay ambiguous (42000). The statement is changed in place.
 *
 * <p>Under a set operation ({@code SELECT k, k FROM t EXCEPT SELECT v, 30 FROM t ORDER BY 1}) the validator sorts
 * a {@code SELECT * FROM (the set operation)}, whose star it cannot expand over two columns of one name, whatever
 * the ORDER BY says. There the later items of a repeated name in the set operation's first SELECT (which names
 * its columns) get names of their own; the statement's result columns keep the names written
 * ({@link #resolveIn} returns them). An ORDER BY naming a repeated name stays ambiguous there (the columns may
 * differ in the other SELECTs), as in PostgreSQL.
 */
final class RepeatedSortColumns extends SqlBasicVisitor<Void> {

    private final SqlNode statement;
    /** The names the statement's result columns show, where a set operation's columns were renamed. */
    private List<String> shown;

    private RepeatedSortColumns(SqlNode statement) {
        this.statement = statement;
    }

    /**
     * Resolves the repeated names of {@code statement} in place; returns the names its result columns are to
     * show if the columns' own names had to change (see the class comment), else null.
     */
    static List<String> resolveIn(SqlNode statement) {
        RepeatedSortColumns r = new RepeatedSortColumns(statement);
        statement.accept(r);
        return r.shown;
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select) {
            resolve(select.getSelectList(), orderBy.orderList);
        } else if (call instanceof SqlOrderBy orderBy && orderBy.query.getKind().belongsTo(SqlKind.SET_QUERY)) {
            SqlSelect first = firstSelect(orderBy.query);
            if (first != null) {
                List<String> written = renameRepeated(first.getSelectList(), orderBy.orderList);
                if (written != null && call == statement) {
                    shown = written;
                }
            }
        } else if (call instanceof SqlSelect select && select.getOrderList() != null) {
            resolve(select.getSelectList(), select.getOrderList());
        }
        return super.visit(call);
    }

    /** The SELECT that names a set operation's columns (its first, leftmost), or null. */
    private static SqlSelect firstSelect(SqlNode query) {
        SqlNode q = query;
        while (q.getKind().belongsTo(SqlKind.SET_QUERY)) {
            q = ((SqlCall) q).operand(0);
        }
        return q instanceof SqlSelect select ? select : null;
    }

    /**
     * Gives each select item whose name an earlier item has a name of its own; returns the names as written
     * if any changed, else null. Nothing changes while the ORDER BY still names a repeated name (different
     * expressions under it): that stays ambiguous.
     */
    private static List<String> renameRepeated(SqlNodeList selectList, SqlNodeList orderList) {
        if (selectList == null) {
            return null;
        }
        List<String> written = new ArrayList<>();
        for (int j = 0; j < selectList.size(); j++) {
            if (selectList.get(j) instanceof SqlIdentifier id && id.isStar()) {
                return null; // the names are the star's columns, not known before validation
            }
            written.add(SqlValidatorUtil.alias(selectList.get(j), j));
        }
        if (new HashSet<>(written).size() == written.size() || namesRepeated(orderList, written)) {
            return null;
        }
        Set<String> taken = new HashSet<>(written);
        Set<String> seen = new HashSet<>();
        for (int j = 0; j < selectList.size(); j++) {
            if (seen.add(written.get(j))) {
                continue;
            }
            String own = written.get(j);
            for (int n = j + 1; !taken.add(own); n++) {
                own = written.get(j) + "$" + n;
            }
            SqlNode item = selectList.get(j);
            SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            selectList.set(j, SqlStdOperatorTable.AS.createCall(item.getParserPosition(), value,
                    new SqlIdentifier(own, item.getParserPosition())));
        }
        return written;
    }

    private static void resolve(SqlNodeList selectList, SqlNodeList orderList) {
        if (selectList == null) {
            return;
        }
        for (int i = 0; i < orderList.size(); i++) {
            SqlNode item = orderList.get(i);
            SqlNode key = sortKey(item);
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

    /** Whether an ORDER BY item is a name that several of {@code names} are. */
    private static boolean namesRepeated(SqlNodeList orderList, List<String> names) {
        for (SqlNode item : orderList) {
            SqlNode key = sortKey(item);
            if (key instanceof SqlIdentifier id && id.isSimple()
                    && names.indexOf(id.getSimple()) != names.lastIndexOf(id.getSimple())) {
                return true;
            }
        }
        return false;
    }

    /** {@code item} without DESC / NULLS FIRST / NULLS LAST. */
    private static SqlNode sortKey(SqlNode item) {
        SqlNode key = item;
        while (key instanceof SqlBasicCall c && (c.getKind() == SqlKind.DESCENDING
                || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
            key = c.operand(0);
        }
        return key;
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
