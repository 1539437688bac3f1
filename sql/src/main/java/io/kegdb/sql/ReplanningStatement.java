package io.kegdb.sql;

import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.SqlErrors;

import java.util.List;

/**
 * {@link SqlStatement}: a plan, made again if DDL changed the catalog since it was prepared or its tables'
 * sizes outdated it.
 */
final class ReplanningStatement implements SqlStatement {

    private final KegSession session;
    private final String sql;
    private Plan plan;
    private boolean closed;

    ReplanningStatement(KegSession session, String sql, Plan plan) {
        this.session = session;
        this.sql = sql;
        this.plan = plan;
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public boolean isQuery() {
        return plan.isQuery();
    }

    @Override
    public int parameterCount() {
        return plan.parameters().size();
    }

    @Override
    public List<ColumnInfo> parameters() {
        return plan.parameters();
    }

    @Override
    public List<ColumnInfo> columns() {
        return plan.columns();
    }

    @Override
    public SqlResult execute(List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (closed) {
            throw new SqlError(SqlState.FUNCTION_SEQUENCE_ERROR, "the statement is closed");
        }
        try {
            long version = plan.catalogVersion();
            if ((version >= 0 && version != session.database().catalog().snapshot().version()) || plan.outdated()) {
                plan = session.replan(sql, deadline);
            }
            return session.run(plan, params == null ? List.of() : params, maxRows, deadline);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
