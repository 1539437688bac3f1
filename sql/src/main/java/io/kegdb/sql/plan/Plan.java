package io.kegdb.sql.plan;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;

import java.util.List;

/** A statement ready to run any number of times: shared by every session through the plan cache. */
public interface Plan {

    /** Catalog version the plan was made for; a plan of an older version is made again. */
    long catalogVersion();

    /**
     * Whether the plan was chosen for table sizes that have since changed so much that it may no longer be
     * the cheaper one: it is then made again, like a plan of an older catalog version.
     */
    default boolean outdated() {
        return false;
    }

    boolean isQuery();

    List<ColumnInfo> parameters();

    List<ColumnInfo> columns();

    /** How the plan runs, the one row of {@code EXPLAIN PLAN FOR}; by default the plan's kind. */
    default String explain() {
        return getClass().getSimpleName();
    }

    /** Runs the plan; a long execution stops with HYT00 once {@code deadline} is reached. */
    SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError;
}
