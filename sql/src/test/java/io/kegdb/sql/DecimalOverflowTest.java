package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DECIMAL value with more digits than its column fails the write with 22003 naming the column, as an
 * over-long string's 22001 does, on every write path (the key/value fast path and the ones planned by Calcite),
 * and writes nothing; a value that fits after rounding to the column's scale is written rounded.
 */
class DecimalOverflowTest extends InMemorySessionTest {

    @BeforeEach
    void createTables() throws SqlError {
        update(s, "CREATE TABLE T (K INTEGER PRIMARY KEY, V DECIMAL(5,2))");
        update(s, "INSERT INTO T VALUES (1, 1.5)");
        update(s, "CREATE TABLE SRC (K INTEGER PRIMARY KEY, V DECIMAL(9,3))");
        update(s, "INSERT INTO SRC VALUES (7, 123456.789)");
    }

    private void overflows(String sql, Object... params) {
        SqlError e = fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, sql, params);
        assertTrue(e.getMessage().contains("column V"), sql + ": " + e.getMessage());
    }

    @Test
    void everyWritePathNamesTheColumn() throws SqlError {
        overflows("INSERT INTO T VALUES (2, 1234.5)");
        overflows("INSERT INTO T VALUES (?, ?)", 2, new BigDecimal("1234.5"));
        overflows("INSERT INTO T VALUES (2, 1.5), (3, 1234.5)");
        overflows("INSERT INTO T SELECT K, V FROM SRC");
        overflows("UPSERT INTO T VALUES (1, 1234.5)");
        overflows("UPSERT INTO T VALUES (1, 1.5), (3, 1234.5)");
        overflows("UPDATE T SET V = 1234.5 WHERE K = 1");
        overflows("UPDATE T SET V = ? WHERE K = ?", new BigDecimal("1234.5"), 1);
        overflows("UPDATE T SET V = V * 1000");
        overflows("MERGE INTO T USING SRC ON T.K = SRC.K WHEN NOT MATCHED THEN INSERT VALUES (SRC.K, SRC.V)");
        assertEquals(List.of(row(1, new BigDecimal("1.50"))), rows(s, "SELECT K, V FROM T"), "nothing written");
    }

    @Test
    void aValueThatFitsAfterRoundingIsWrittenRounded() throws SqlError {
        update(s, "INSERT INTO T VALUES (2, 999.994), (3, -1.005)");
        update(s, "UPDATE T SET V = V + 0.004 WHERE K = 1");
        assertEquals(List.of(row(1, new BigDecimal("1.50")), row(2, new BigDecimal("999.99")),
                row(3, new BigDecimal("-1.01"))), rows(s, "SELECT K, V FROM T ORDER BY K"));
        overflows("INSERT INTO T VALUES (4, 999.995), (5, 1)");
    }
}
