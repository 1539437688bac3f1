package io.kegdb.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.util.NlsString;

/**
 * Drops {@code ESCAPE ''} from LIKE in a parsed statement: an empty escape means "no escape character" in H2
 * and PostgreSQL (Hibernate sends it), where Calcite's runtime rejects it as an invalid escape (22025). The
 * statement is changed in place, by replacing each such LIKE in its parent.
 */
final class EmptyLikeEscape extends ParsedRewrite {

    private EmptyLikeEscape() {
    }

    static void removeFrom(SqlNode statement) {
        statement.accept(new EmptyLikeEscape());
    }

    /** The LIKE without its escape if {@code node} is a LIKE with {@code ESCAPE ''}, else null. */
    @Override
    SqlNode replacement(SqlNode node) {
        if (node instanceof SqlCall like && like.getOperator() instanceof SqlLikeOperator op
                && like.operandCount() == 3 && like.operand(2) instanceof SqlCharStringLiteral escape
                && escape.getValueAs(NlsString.class).getValue().isEmpty()) {
            return op.createCall(like.getParserPosition(), like.operand(0), like.operand(1));
        }
        return null;
    }
}
