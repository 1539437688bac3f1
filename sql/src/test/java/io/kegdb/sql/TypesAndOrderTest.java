package io.kegdb.sql;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TypesAndOrderTest extends InMemorySessionTest {

    @Test
    void bigintKeysSortNumericallyNegativesIncluded() throws SqlError {
        update(s, "CREATE TABLE n (k BIGINT PRIMARY KEY, v BIGINT)");
        long[] keys = {5, -1, 0, Long.MIN_VALUE, Long.MAX_VALUE, -300, 300, 1};
        for (long k : keys) {
            update(s, "INSERT INTO n VALUES (?, ?)", k, -k);
        }
        List<List<Object>> asc = List.of(row(Long.MIN_VALUE), row(-300L), row(-1L), row(0L), row(1L), row(5L),
                row(300L), row(Long.MAX_VALUE));
        assertEquals(asc, rows(s, "SELECT k FROM n"), "natural scan order is numeric");
        assertEquals(asc, rows(s, "SELECT k FROM n ORDER BY k"));
        List<List<Object>> desc = new ArrayList<>(asc);
        java.util.Collections.reverse(desc);
        assertEquals(desc, rows(s, "SELECT k FROM n ORDER BY k DESC"));
        assertEquals(List.of(row(-300L), row(-1L), row(0L)), rows(s, "SELECT k FROM n WHERE k BETWEEN -300 AND 0"));
        assertEquals(List.of(row(-1L), row(0L)), rows(s, "SELECT k FROM n WHERE k > ? AND k < ?", -300L, 1L));
        assertEquals(List.of(row(Long.MIN_VALUE), row(-300L)), rows(s, "SELECT k FROM n WHERE k < -1"));
        assertEquals(List.of(row(-5L)), rows(s, "SELECT v FROM n WHERE k = 5"));
        assertEquals(List.of(row(300L)), rows(s, "SELECT v FROM n WHERE k = -300"));
        assertEquals(List.of(row(Long.MAX_VALUE, -Long.MAX_VALUE)), rows(s, "SELECT * FROM n ORDER BY k DESC LIMIT 1"));
        assertEquals(List.of(row(8L, 0L)), rows(s, "SELECT COUNT(*), MIN(k) + MAX(k) + 1 FROM n"));
        assertEquals(List.of(row(-300L)), rows(s, "SELECT k FROM n WHERE k <> 0 AND k < -1 AND k > -1000"));
    }

    @Test
    void varcharKeysSortByBytesAndRangesWork() throws SqlError {
        for (String k : List.of("b", "a", "ab", "", "ba", "abc", "c")) {
            update(s, "INSERT INTO kv VALUES (?, ?)", k, k.toUpperCase());
        }
        assertEquals(List.of(row(""), row("a"), row("ab"), row("abc"), row("b"), row("ba"), row("c")),
                rows(s, "SELECT k FROM kv"));
        assertEquals(List.of(row("ab"), row("abc"), row("b")), rows(s, "SELECT k FROM kv WHERE k > 'a' AND k <= 'b'"));
        assertEquals(List.of(row("a"), row("ab"), row("abc")), rows(s, "SELECT k FROM kv WHERE k LIKE 'a%'"));
        assertEquals(List.of(row("ab"), row("abc")), rows(s, "SELECT k FROM kv WHERE k LIKE 'a_%'"));
        assertEquals(List.of(row("")), rows(s, "SELECT v FROM kv WHERE k = ''"));
        assertEquals(List.of(row("c"), row("ba")), rows(s, "SELECT k FROM kv WHERE k IN ('ba', 'c', 'zz') ORDER BY k DESC"));
    }

    @Test
    void varbinaryKeysAndValuesAndNulls() throws SqlError {
        update(s, "CREATE TABLE b (k VARBINARY PRIMARY KEY, v VARBINARY)");
        update(s, "INSERT INTO b VALUES (?, ?)", new byte[] {(byte) 0xFF}, new byte[] {1, 2});
        update(s, "INSERT INTO b VALUES (X'00', X'')");
        update(s, "INSERT INTO b VALUES (X'0001', NULL)");
        List<List<Object>> all = rows(s, "SELECT k, v FROM b");
        assertEquals(3, all.size());
        assertArrayEquals(new byte[] {0}, (byte[]) all.get(0).get(0));
        assertArrayEquals(new byte[0], (byte[]) all.get(0).get(1), "empty is not NULL");
        assertArrayEquals(new byte[] {0, 1}, (byte[]) all.get(1).get(0));
        assertNull(all.get(1).get(1));
        assertArrayEquals(new byte[] {(byte) 0xFF}, (byte[]) all.get(2).get(0), "keys compare as unsigned bytes");
        assertArrayEquals(new byte[] {1, 2}, (byte[]) rows(s, "SELECT v FROM b WHERE k = ?", new byte[] {(byte) 0xFF}).get(0).get(0));
        assertEquals(1, rows(s, "SELECT k FROM b WHERE k > X'00' AND k < X'FF'").size());
    }

    @Test
    void valueNullsAndEmptyStringsStayDistinct() throws SqlError {
        update(s, "CREATE TABLE t (k VARCHAR PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO t VALUES ('null', NULL), ('zero', 0)");
        update(s, "INSERT INTO kv VALUES ('e', ''), ('n', NULL)");
        assertEquals(List.of(row("null", null), row("zero", 0L)), rows(s, "SELECT * FROM t"));
        assertEquals(List.of(row("n")), rows(s, "SELECT k FROM kv WHERE v IS NULL"));
        assertEquals(List.of(row("e")), rows(s, "SELECT k FROM kv WHERE v = ''"));
        assertEquals(List.of(row(1L)), rows(s, "SELECT COUNT(v) FROM t"));
    }

    @Test
    void parametersConvertFromCommonJavaTypes() throws SqlError {
        update(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "INSERT INTO t VALUES (?, ?)", 7, 42L);
        update(s, "INSERT INTO t VALUES (?, ?)", "8", "x");
        assertEquals(List.of(row("42")), rows(s, "SELECT v FROM t WHERE k = ?", (short) 7));
        assertEquals(List.of(row(8L)), rows(s, "SELECT k FROM t WHERE k > ? AND v = ?", 7, "x"));
        assertEquals(List.of(row(7L)), rows(s, "SELECT k FROM t WHERE k = ?", new java.math.BigDecimal("7")));
    }
}
