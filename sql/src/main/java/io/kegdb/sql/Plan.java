package io.kegdb.sql;

import java.util.List;

/** A statement ready to run any number of times: shared by every session through the plan cache. */
interface Plan {

    /** Catalog version the plan was made for; a plan of an older version is made again. */
    long catalogVersion();

    boolean isQuery();

    List<ColumnInfo> parameters();

    List<ColumnInfo> columns();

    /** Runs the plan; a long execution stops with HYT00 once {@code deadline} is reached. */
    SqlResult execute(KegSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError;
}
