package io.kegdb.sql;

import java.util.List;

/** A result that passes every call to the result it wraps; a subclass overrides only what it changes. */
abstract class ForwardingResult implements SqlResult {

    /** The wrapped result. */
    protected final SqlResult rows;

    ForwardingResult(SqlResult rows) {
        this.rows = rows;
    }

    @Override
    public boolean isQuery() {
        return rows.isQuery();
    }

    @Override
    public long updateCount() {
        return rows.updateCount();
    }

    @Override
    public List<ColumnInfo> columns() {
        return rows.columns();
    }

    @Override
    public boolean next() throws SqlError {
        return rows.next();
    }

    @Override
    public Object get(int index) throws SqlError {
        return rows.get(index);
    }

    @Override
    public void close() {
        rows.close();
    }
}
