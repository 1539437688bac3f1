package io.kegdb.sql.plan;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;

import java.util.List;

/** The result of DML or DDL: an update count and no rows. */
public record CountResult(long updateCount) implements SqlResult {

    @Override
    public boolean isQuery() {
        return false;
    }

    @Override
    public List<ColumnInfo> columns() {
        return List.of();
    }

    @Override
    public boolean next() {
        return false;
    }

    @Override
    public Object get(int index) throws SqlError {
        throw new SqlError(SqlState.INVALID_CURSOR_STATE, "an update count has no rows");
    }

    @Override
    public void close() {
    }
}
