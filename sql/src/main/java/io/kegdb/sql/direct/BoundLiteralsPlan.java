package io.kegdb.sql.direct;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.WrappingPlan;

import java.util.ArrayList;
import java.util.List;

/**
 * A plan shared by statements that differ only in literals ({@link LiteralParameters}), with one statement's
 * literals bound: it runs the shared plan with those literals in place of the parameters that replaced them.
 */
public final class BoundLiteralsPlan extends WrappingPlan {

    private final LiteralParameters literals;
    private final List<ColumnInfo> parameters;

    private BoundLiteralsPlan(Plan shared, LiteralParameters literals) {
        super(shared);
        this.literals = literals;
        List<ColumnInfo> own = new ArrayList<>();
        for (int i = 0; i < literals.slots().size(); i++) {
            if (literals.slots().get(i).literal() == null) {
                own.add(shared.parameters().get(i));
            }
        }
        this.parameters = List.copyOf(own);
    }

    /** {@code shared} with the literals of {@code literals} bound, or null if one does not fit its parameter. */
    public static Plan bind(Plan shared, LiteralParameters literals) {
        return literals.fits(shared.parameters()) ? new BoundLiteralsPlan(shared, literals) : null;
    }




    /** The parameters of the statement as written, not those that replaced its literals. */
    @Override
    public List<ColumnInfo> parameters() {
        return parameters;
    }


    @Override
    public String explain() {
        StringBuilder sb = new StringBuilder(inner.explain()).append("\nliterals as parameters:");
        for (int i = 0; i < literals.slots().size(); i++) {
            LiteralParameters.Literal l = literals.slots().get(i).literal();
            if (l != null) {
                sb.append(" ?").append(i).append('=').append(l.kind() == Lexer.Kind.STRING ? "'" + l.text() + "'"
                        : l.kind() == Lexer.Kind.BINARY ? "X'" + l.text() + "'" : l.text());
            }
        }
        return sb.toString();
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (params.size() != parameters.size()) {
            throw new SqlError(SqlState.PARAMETER_MISSING, "statement has " + parameters.size() + " parameters, " + params.size()
                    + " given");
        }
        return inner.execute(session, literals.bind(inner.parameters(), params), maxRows, deadline);
    }
}
