package io.kegdb.jdbc;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlResult;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Rows held in memory, for metadata and generated-key result sets. */
final class RowsResult implements SqlResult {
    private final List<ColumnInfo> columns;
    private final List<Object[]> rows;
    private int position = -1;

    RowsResult(List<ColumnInfo> columns, List<Object[]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    @Override
    public boolean isQuery() {
        return true;
    }

    @Override
    public long updateCount() {
        return -1;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (position < rows.size()) {
            position++;
        }
        return position < rows.size();
    }

    @Override
    public Object get(int index) {
        return rows.get(position)[index];
    }

    @Override
    public void close() {
        position = rows.size();
    }

    /** Builds the column list of a metadata result: {@code name, type} pairs. */
    static final class Shape {
        private final List<ColumnInfo> columns = new ArrayList<>();

        Shape text(String name) {
            return add(name, Types.VARCHAR, "VARCHAR");
        }

        Shape integer(String name) {
            return add(name, Types.INTEGER, "INTEGER");
        }

        Shape smallint(String name) {
            return add(name, Types.SMALLINT, "SMALLINT");
        }

        Shape bigint(String name) {
            return add(name, Types.BIGINT, "BIGINT");
        }

        Shape bool(String name) {
            return add(name, Types.BOOLEAN, "BOOLEAN");
        }

        private Shape add(String name, int type, String typeName) {
            columns.add(new ColumnInfo(name, type, typeName, 0, 0, true, "", ""));
            return this;
        }

        List<ColumnInfo> columns() {
            return List.copyOf(columns);
        }

        int size() {
            return columns.size();
        }
    }
}
