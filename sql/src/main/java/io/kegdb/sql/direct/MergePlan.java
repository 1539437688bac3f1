package io.kegdb.sql.direct;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.WrappingPlan;

import java.util.List;

/**
 * A MERGE, run as the statement {@link MergeRewrite} made of it, writing each target key at most once: a
 * source that matches one target row twice fails with 21000 (cardinality violation, as the standard says)
 * and writes nothing, instead of applying both rows.
 */
public final class MergePlan extends WrappingPlan {

    public MergePlan(Plan inner) {
        super(inner);
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        session.writeEachKeyOnce(true);
        try {
            return inner.execute(session, params, maxRows, deadline);
        } finally {
            session.writeEachKeyOnce(false);
        }
    }
}
