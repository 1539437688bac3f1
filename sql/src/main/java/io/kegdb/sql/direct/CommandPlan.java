package io.kegdb.sql.direct;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.plan.Plan;

import java.util.List;

/** A statement that is a command (DDL, BACKUP): no parameters, no result rows, valid in any catalog version. */
abstract class CommandPlan implements Plan {

    @Override
    public final long catalogVersion() {
        return -1;
    }

    @Override
    public final boolean isQuery() {
        return false;
    }

    @Override
    public final List<ColumnInfo> parameters() {
        return List.of();
    }

    @Override
    public final List<ColumnInfo> columns() {
        return List.of();
    }
}
