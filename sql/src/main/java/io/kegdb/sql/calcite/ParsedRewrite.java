package io.kegdb.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Changes a parsed statement in place before validation: each node for which {@link #replacement} answers is
 * replaced in its parent, and the walk goes on below the replacement.
 */
abstract class ParsedRewrite extends SqlBasicVisitor<Void> {

    /** What {@code node} becomes, or null to keep it. */
    abstract SqlNode replacement(SqlNode node);

    @Override
    public Void visit(SqlCall call) {
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode replaced = replacement(call.operand(i));
            if (replaced != null) {
                call.setOperand(i, replaced);
            }
        }
        return super.visit(call);
    }

    @Override
    public Void visit(SqlNodeList list) {
        for (int i = 0; i < list.size(); i++) {
            SqlNode replaced = replacement(list.get(i));
            if (replaced != null) {
                list.set(i, replaced);
            }
        }
        return super.visit(list);
    }
}
