package io.kegdb.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ColumnValuesTest {

    @Test
    void getObjectFollowsTheColumnType() throws SQLException {
        assertEquals(5L, ColumnValues.toJdbcObject(5, Types.BIGINT));
        assertEquals(5, ColumnValues.toJdbcObject(5L, Types.INTEGER));
        assertEquals(new BigDecimal("1.5"), ColumnValues.toJdbcObject(new BigDecimal("1.5"), Types.DECIMAL));
        assertEquals(Date.valueOf("2024-02-29"), ColumnValues.toJdbcObject(LocalDate.of(2024, 2, 29), Types.DATE));
        assertEquals(Timestamp.valueOf("2024-01-01 10:00:00"),
                ColumnValues.toJdbcObject(LocalDateTime.of(2024, 1, 1, 10, 0), Types.TIMESTAMP));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) ColumnValues.toJdbcObject(new byte[] {1, 2}, Types.VARBINARY));
    }

    @Test
    void conversionsAndTheirFailures() throws SQLException {
        assertEquals(42L, ColumnValues.toLong("42"));
        assertEquals("0102ff", ColumnValues.toStringValue(new byte[] {1, 2, (byte) 0xff}));
        SQLException e = assertThrows(SQLException.class, () -> ColumnValues.toLong("forty-two"));
        assertEquals("22018", e.getSQLState());
        assertThrows(SQLException.class, () -> ColumnValues.toInt(1L << 40));
        assertEquals(LocalDate.of(2020, 1, 2), ColumnValues.toType("2020-01-02", LocalDate.class));
    }
}
