package io.kegdb.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Small helpers shared by the SQL tests. */
final class SqlTestSupport {

    private SqlTestSupport() {
    }

    /** Every row of a query, each as a list of values. */
    static List<List<Object>> rows(SqlSession s, String sql, Object... params) throws SqlError {
        try (SqlStatement st = s.prepare(sql); SqlResult r = st.execute(Arrays.asList(params), 0)) {
            return drain(r);
        }
    }

    static List<List<Object>> drain(SqlResult r) throws SqlError {
        List<List<Object>> out = new ArrayList<>();
        while (r.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < r.columns().size(); i++) {
                row.add(r.get(i));
            }
            out.add(row);
        }
        return out;
    }

    static long update(SqlSession s, String sql, Object... params) throws SqlError {
        try (SqlStatement st = s.prepare(sql); SqlResult r = st.execute(Arrays.asList(params), 0)) {
            return r.updateCount();
        }
    }

    static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** Asserts that running {@code sql} fails with {@code state}; returns the error. */
    static SqlError fails(String state, SqlSession s, String sql, Object... params) {
        SqlError e = assertThrows(SqlError.class, () -> {
            try (SqlStatement st = s.prepare(sql); SqlResult r = st.execute(Arrays.asList(params), 0)) {
                drain(r);
            }
        }, sql);
        assertEquals(state, e.sqlState(), () -> sql + ": " + e.getMessage());
        return e;
    }
}
