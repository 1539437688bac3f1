package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A value that does not fit its column fails the statement on every write path (22001 for a string or a key
 * too long, 22003 for a number with too many digits, where H2 says 22001) and the statement writes nothing,
 * as in H2; a value that fits after rounding to the column's scale is stored rounded. Each form runs in
 * autocommit and inside a transaction that wrote before it (that earlier write stays), on a file store,
 * beside H2 running the same statement or its H2 spelling.
 */
class StoreAssignmentTest {

    private static final String[] DATA = {
        "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(3))",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
        "CREATE TABLE n (k VARCHAR(3) PRIMARY KEY, v BIGINT)",
        "INSERT INTO n VALUES ('a', 1)",
        "CREATE TABLE src (k BIGINT PRIMARY KEY, v VARCHAR(10))",
        "INSERT INTO src VALUES (1, 'uno'), (3, 'ok'), (4, 'four')",
        "CREATE TABLE d (k BIGINT PRIMARY KEY, v DECIMAL(5, 2))",
        "INSERT INTO d VALUES (1, 1.5), (2, 999.99)",
        "CREATE TABLE dsrc (k BIGINT PRIMARY KEY, v DECIMAL(10, 3))",
        "INSERT INTO dsrc VALUES (1, 12345.678), (3, 1.005), (4, 2.5)",
        "CREATE TABLE b (k BIGINT PRIMARY KEY, v VARBINARY(2))",
        "INSERT INTO b VALUES (1, X'01')",
    };

    private static final String[] TABLES = {"t", "n", "d", "b"};

    /** A statement for KegDB, the same for H2 (null: the same text), the SQLState expected, its parameters. */
    private record Case(String name, String kegdb, String h2, String state, Object... params) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String TOO_LONG = "22001";
    private static final String OUT_OF_RANGE = "22003";

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("INSERT VALUES", "INSERT INTO t VALUES (3, 'ok'), (4, 'four')", null, TOO_LONG));
        c.add(new Case("INSERT VALUES with parameters", "INSERT INTO t VALUES (?, ?)", null, TOO_LONG, 3L, "four"));
        c.add(new Case("INSERT VALUES of a key", "INSERT INTO n VALUES ('b', 2), ('long', 3)", null, TOO_LONG));
        c.add(new Case("INSERT SELECT", "INSERT INTO t SELECT k, v FROM src WHERE k > 2", null, TOO_LONG));
        c.add(new Case("INSERT SELECT of an expression", "INSERT INTO t SELECT k + 10, v || 'xyz' FROM t", null,
                TOO_LONG));
        c.add(new Case("INSERT SELECT of a key", "INSERT INTO n SELECT v, k FROM src", null, TOO_LONG));
        c.add(new Case("UPDATE by key", "UPDATE t SET v = 'four' WHERE k = 1", null, TOO_LONG));
        c.add(new Case("UPDATE by key with a parameter", "UPDATE t SET v = ? WHERE k = ?", null, TOO_LONG, "four", 1L));
        c.add(new Case("UPDATE of every row", "UPDATE t SET v = v || 'xyz'", null, TOO_LONG));
        c.add(new Case("UPDATE from a sub-query", "UPDATE t SET v = (SELECT s.v FROM src s WHERE s.k = 4) WHERE k = 2",
                null, TOO_LONG));
        c.add(new Case("UPDATE of a key", "UPDATE n SET k = 'long' WHERE k = 'a'", null, TOO_LONG));
        c.add(new Case("UPSERT VALUES", "UPSERT INTO t VALUES (1, 'x'), (3, 'four')",
                "MERGE INTO t KEY (k) VALUES (1, 'x'), (3, 'four')", TOO_LONG));
        c.add(new Case("UPSERT SELECT", "UPSERT INTO t SELECT k, v FROM src",
                "MERGE INTO t KEY (k) SELECT k, v FROM src", TOO_LONG));
        c.add(new Case("MERGE of VALUES, both clauses", "MERGE INTO t USING (VALUES (1, 'x'), (5, 'long')) AS s (k, v)"
                + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)",
                null, TOO_LONG));
        c.add(new Case("MERGE of VALUES, update", "MERGE INTO t USING (VALUES (2, 'x'), (1, 'long')) AS s (k, v)"
                + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v", null, TOO_LONG));
        c.add(new Case("MERGE with parameters", "MERGE INTO t USING (VALUES (?, ?)) AS s (k, v)"
                + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v", null, TOO_LONG, 1L, "long"));
        c.add(new Case("MERGE of a table", "MERGE INTO t USING src AS s ON t.k = s.k"
                + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", null, TOO_LONG));
        c.add(new Case("MERGE of a query, insert", "MERGE INTO t USING (SELECT k, v FROM src) AS s ON t.k = s.k"
                + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)", null, TOO_LONG));
        c.add(new Case("MERGE updating with an expression", "MERGE INTO t USING src AS s ON t.k = s.k"
                + " WHEN MATCHED THEN UPDATE SET v = t.v || s.v", null, TOO_LONG));
        c.add(new Case("MERGE into a key", "MERGE INTO n USING (SELECT v, k FROM src) AS s (k, v) ON n.k = s.k"
                + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", null, TOO_LONG));
        c.add(new Case("ON CONFLICT DO UPDATE SET EXCLUDED", "INSERT INTO t VALUES (1, 'long')"
                + " ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v", "MERGE INTO t KEY (k) VALUES (1, 'long')", TOO_LONG));
        c.add(new Case("ON CONFLICT DO UPDATE of an expression", "INSERT INTO t VALUES (1, 'x')"
                + " ON CONFLICT (k) DO UPDATE SET v = t.v || 'long'", mergeH2("(1, 'x')", "t.v || 'long'"), TOO_LONG));
        c.add(new Case("ON CONFLICT DO UPDATE, a new row", "INSERT INTO t VALUES (1, 'x'), (6, 'long')"
                + " ON CONFLICT (k) DO UPDATE SET v = t.v || EXCLUDED.v", mergeH2("(1, 'x'), (6, 'long')", "t.v || s.v"),
                TOO_LONG));
        c.add(new Case("ON CONFLICT DO NOTHING", "INSERT INTO t VALUES (1, 'x'), (6, 'long') ON CONFLICT DO NOTHING",
                "MERGE INTO t USING (VALUES (1, 'x'), (6, 'long')) AS s (k, v) ON t.k = s.k"
                + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", TOO_LONG));
        c.add(new Case("ON DUPLICATE KEY UPDATE of an expression", "INSERT INTO t VALUES (1, 'x')"
                + " ON DUPLICATE KEY UPDATE v = CONCAT(v, 'long')", mergeH2("(1, 'x')", "CONCAT(t.v, 'long')"), TOO_LONG));
        c.add(new Case("ON DUPLICATE KEY UPDATE with parameters", "INSERT INTO t VALUES (?, ?) ON DUPLICATE KEY UPDATE v = ?",
                mergeH2("(CAST(? AS BIGINT), CAST(? AS VARCHAR(10)))", "?"), TOO_LONG, 1L, "x", "long"));
        c.add(new Case("ON DUPLICATE KEY UPDATE VALUES()", "INSERT INTO t VALUES (1, 'long')"
                + " ON DUPLICATE KEY UPDATE v = VALUES(v)", "MERGE INTO t KEY (k) VALUES (1, 'long')", TOO_LONG));

        c.add(new Case("INSERT SELECT of bytes", "INSERT INTO b SELECT k + 10, X'010203' FROM t", null, TOO_LONG));
        c.add(new Case("UPDATE of bytes", "UPDATE b SET v = v || X'0203'", null, TOO_LONG));

        c.add(new Case("INSERT VALUES of a DECIMAL", "INSERT INTO d VALUES (3, 1234.5)", null, OUT_OF_RANGE));
        c.add(new Case("INSERT SELECT of a DECIMAL", "INSERT INTO d SELECT k + 10, v FROM dsrc", null, OUT_OF_RANGE));
        c.add(new Case("INSERT SELECT of a DECIMAL expression", "INSERT INTO d SELECT k + 10, v * 10 FROM d", null,
                OUT_OF_RANGE));
        c.add(new Case("UPDATE of a DECIMAL", "UPDATE d SET v = v * 10", null, OUT_OF_RANGE));
        c.add(new Case("UPSERT SELECT of a DECIMAL", "UPSERT INTO d SELECT k, v FROM dsrc",
                "MERGE INTO d KEY (k) SELECT k, v FROM dsrc", OUT_OF_RANGE));
        c.add(new Case("MERGE of a DECIMAL", "MERGE INTO d USING dsrc AS s ON d.k = s.k"
                + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", null,
                OUT_OF_RANGE));
        c.add(new Case("ON CONFLICT DO UPDATE of a DECIMAL", "INSERT INTO d VALUES (2, 1)"
                + " ON CONFLICT (k) DO UPDATE SET v = d.v * 10",
                "MERGE INTO d USING (VALUES (2, 1)) AS s (k, v) ON d.k = s.k WHEN MATCHED THEN UPDATE SET v = d.v * 10"
                + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", OUT_OF_RANGE));

        // Values that fit are written, rounded to the column's scale where they have more digits.
        c.add(new Case("INSERT SELECT rounding a DECIMAL", "INSERT INTO d SELECT k + 10, v FROM dsrc WHERE k > 1",
                null, null));
        c.add(new Case("MERGE of a DECIMAL that fits", "MERGE INTO d USING (SELECT k, v FROM dsrc WHERE k > 1) AS s"
                + " ON d.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)",
                null, null));
        c.add(new Case("MERGE of strings that fit", "MERGE INTO t USING (SELECT k, v FROM src WHERE k < 4) AS s"
                + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)",
                null, null));
        c.add(new Case("ON CONFLICT DO UPDATE that fits", "INSERT INTO t VALUES (1, 'x'), (7, 'new')"
                + " ON CONFLICT (k) DO UPDATE SET v = t.v || 'yz'", mergeH2("(1, 'x'), (7, 'new')", "t.v || 'yz'"),
                null));
        return c;
    }

    /** H2's spelling of an upsert of {@code rows} that sets {@code v = set} where the key exists. */
    private static String mergeH2(String rows, String set) {
        return "MERGE INTO t USING (VALUES " + rows + ") AS s (k, v) ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = "
                + set + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)";
    }

    static Stream<Arguments> forms() {
        return cases().stream().flatMap(c -> Stream.of(Arguments.of(c, false), Arguments.of(c, true)));
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, in a transaction: {1}")
    @MethodSource("forms")
    void failsAndWritesNothingAsH2Does(Case c, boolean transaction) throws SQLException {
        try (Connection kegdb = DriverManager.getConnection("jdbc:kegdb:" + dir.resolve("db"));
             Connection h2 = Databases.h2()) {
            exec(kegdb, DATA);
            exec(h2, DATA);
            List<List<List<Object>>> before = contents(kegdb);
            assertEquals(contents(h2), before, "the same data to start with");
            for (Connection conn : List.of(kegdb, h2)) {
                if (transaction) {
                    conn.setAutoCommit(false);
                    exec(conn, "INSERT INTO t VALUES (9, 'z')");
                }
            }
            // H2 reports too many digits as 22001 too; the standard's state for them is 22003.
            String h2State = failure(h2, c.h2() == null ? c.kegdb() : c.h2(), c.params());
            assertEquals(OUT_OF_RANGE.equals(c.state()) ? TOO_LONG : c.state(), h2State,
                    "H2's outcome, the oracle's own check");
            assertEquals(c.state(), failure(kegdb, c.kegdb(), c.params()));
            for (Connection conn : List.of(kegdb, h2)) {
                if (transaction) {
                    conn.commit();
                    conn.setAutoCommit(true);
                }
            }
            assertEquals(contents(h2), contents(kegdb), "the rows afterwards");
        }
        try (Connection reopened = DriverManager.getConnection("jdbc:kegdb:" + dir.resolve("db"))) {
            assertEquals(transaction, !rows(reopened, "SELECT v FROM t WHERE k = 9").isEmpty(),
                    "the transaction's own earlier write stays, and is durable");
        }
    }

    /** Every table's rows in key order, numbers compared by value, bytes as hex. */
    private static List<List<List<Object>>> contents(Connection c) throws SQLException {
        List<List<List<Object>>> out = new ArrayList<>();
        for (String table : TABLES) {
            List<List<Object>> rows = new ArrayList<>();
            for (List<Object> row : rows(c, "SELECT k, v FROM " + table + " ORDER BY k")) {
                List<Object> r = new ArrayList<>();
                for (Object o : row) {
                    r.add(o instanceof BigDecimal b ? b.stripTrailingZeros().toPlainString()
                            : o instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : o);
                }
                rows.add(r);
            }
            out.add(rows);
        }
        return out;
    }
}
