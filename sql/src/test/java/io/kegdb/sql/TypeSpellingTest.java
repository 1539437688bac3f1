package io.kegdb.sql;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The common spellings of column types map onto the nine column types, and types that cannot be kept are refused. */
class TypeSpellingTest extends InMemorySessionTest {

    @Test
    void everySpellingIsStoredAsItsColumnType() throws SqlError {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("DATETIME", "TIMESTAMP(3)");
        expected.put("DATETIME(6)", "TIMESTAMP(3)");
        expected.put("DATETIME(0)", "TIMESTAMP(0)");
        expected.put("INT", "INTEGER");
        expected.put("INT4", "INTEGER");
        expected.put("MEDIUMINT", "INTEGER");
        expected.put("SMALLINT", "INTEGER");
        expected.put("INT2", "INTEGER");
        expected.put("TINYINT", "INTEGER");
        expected.put("INT8", "BIGINT");
        expected.put("FLOAT", "DOUBLE");
        expected.put("FLOAT(24)", "DOUBLE");
        expected.put("FLOAT8", "DOUBLE");
        expected.put("REAL", "DOUBLE");
        expected.put("FLOAT4", "DOUBLE");
        expected.put("DOUBLE PRECISION", "DOUBLE");
        expected.put("NUMERIC", "DECIMAL(19,0)");
        expected.put("NUMERIC(10, 2)", "DECIMAL(10,2)");
        expected.put("DEC(5)", "DECIMAL(5,0)");
        expected.put("CHAR(10)", "VARCHAR(10)");
        expected.put("CHARACTER(4)", "VARCHAR(4)");
        expected.put("CHAR", "VARCHAR(1)");
        expected.put("NCHAR(3)", "VARCHAR(3)");
        expected.put("CHARACTER VARYING(20)", "VARCHAR(20)");
        expected.put("VARCHAR2(7)", "VARCHAR(7)");
        expected.put("NVARCHAR(8)", "VARCHAR(8)");
        expected.put("TEXT", "VARCHAR");
        expected.put("LONGTEXT", "VARCHAR");
        expected.put("CLOB", "VARCHAR");
        expected.put("CLOB(100)", "VARCHAR(100)");
        expected.put("CHARACTER LARGE OBJECT", "VARCHAR");
        expected.put("BLOB", "VARBINARY");
        expected.put("BLOB(16)", "VARBINARY(16)");
        expected.put("BINARY LARGE OBJECT", "VARBINARY");
        expected.put("BINARY VARYING(4)", "VARBINARY(4)");
        expected.put("BYTEA", "VARBINARY");
        expected.put("BOOL", "BOOLEAN");
        expected.put("TIMESTAMP(6) WITHOUT TIME ZONE", "TIMESTAMP(3)");
        int i = 0;
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String table = "T" + i++;
            update(s, "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v " + e.getKey() + ")");
            assertEquals(List.of(row(e.getValue())),
                    rows(s, "SELECT value_type FROM sys.tables WHERE table_name = ?", table), e.getKey());
        }
        // the spelling is not case sensitive, and works for keys too
        update(s, "CREATE TABLE keyed (k datetime PRIMARY KEY, v text)");
        assertEquals(List.of(row("TIMESTAMP(3)", "VARCHAR")),
                rows(s, "SELECT key_type, value_type FROM sys.tables WHERE table_name = 'KEYED'"));
    }

    @Test
    void charKeepsItsLengthAndIsNotPadded() throws SqlError {
        update(s, "CREATE TABLE c (k CHAR(3) PRIMARY KEY, v CHAR(2))");
        update(s, "INSERT INTO c VALUES ('a', 'xy')");
        assertEquals(List.of(row("a", "xy")), rows(s, "SELECT k, v FROM c"));
        assertEquals(List.of(row(1)), rows(s, "SELECT CHAR_LENGTH(k) FROM c"));
        fails(SqlState.STRING_DATA_RIGHT_TRUNCATION, s, "INSERT INTO c VALUES ('abcd', 'x')");
        fails(SqlState.STRING_DATA_RIGHT_TRUNCATION, s, "INSERT INTO c VALUES (?, ?)", "b", "xyz");
        assertEquals(1, rows(s, "SELECT * FROM c").size(), "a refused row writes nothing");
    }

    @Test
    void widerTypesKeepEveryValueOfTheNarrowerOne() throws SqlError {
        update(s, "CREATE TABLE n (k SMALLINT PRIMARY KEY, v REAL)");
        update(s, "INSERT INTO n VALUES (?, ?)", (short) -32768, Float.MAX_VALUE);
        update(s, "INSERT INTO n VALUES (?, ?)", (byte) 7, 0.1f);
        update(s, "INSERT INTO n VALUES (?, ?)", 32767, 0.1d);
        assertEquals(List.of(row(-32768, (double) Float.MAX_VALUE), row(7, (double) 0.1f), row(32767, 0.1d)),
                rows(s, "SELECT k, v FROM n ORDER BY k"));
        // the column holds an INTEGER: its range is INTEGER's, not SMALLINT's
        update(s, "INSERT INTO n VALUES (70000, 1)");
        fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, "INSERT INTO n VALUES (?, 1)", 3_000_000_000L);
        update(s, "CREATE TABLE d (k NUMERIC(5, 2) PRIMARY KEY, v DATETIME)");
        update(s, "INSERT INTO d VALUES (1.25, TIMESTAMP '2024-02-29 10:11:12.345')");
        assertEquals(List.of(row(new BigDecimal("1.25"))),
                rows(s, "SELECT k FROM d WHERE v = TIMESTAMP '2024-02-29 10:11:12.345'"), "milliseconds are kept");
    }

    @Test
    void typesThatCannotBeKeptAreRefused() {
        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put("TIME", "unsupported type TIME");
        refusals.put("TIMESTAMP WITH TIME ZONE", "WITH TIME ZONE is not supported");
        refusals.put("DATETIME WITH TIME ZONE", "WITH TIME ZONE is not supported");
        refusals.put("TIMESTAMPTZ", "WITH TIME ZONE is not supported");
        refusals.put("BINARY(16)", "use VARBINARY(n)");
        refusals.put("DECIMAL(20)", "precision must be 1 to 19");
        refusals.put("NUMERIC(38, 2)", "precision must be 1 to 19");
        refusals.put("FLOAT(54)", "1 to 53");
        refusals.put("INT(11)", "takes no length");
        refusals.put("TEXT(5)", "takes no length");
        refusals.put("CHAR(0)", "must be positive");
        refusals.put("TIMESTAMP(10)", "precision must be 0 to 9");
        refusals.put("UUID", "unsupported type UUID");
        refusals.put("CHARACTER LARGE", "expected OBJECT");
        for (Map.Entry<String, String> e : refusals.entrySet()) {
            SqlError error = fails(SqlState.SYNTAX_ERROR, s, "CREATE TABLE r (k BIGINT PRIMARY KEY, v " + e.getKey() + ")");
            assertTrue(error.getMessage().contains(e.getValue()), e.getKey() + ": " + error.getMessage());
        }
    }

    /**
     * Liquibase's history tables, as it writes them for a database it has no dialect for (DATETIME, INT,
     * CONSTRAINT ... PRIMARY KEY). Every column type is accepted; the tables themselves have more than two
     * columns, which is what refuses them.
     */
    @Test
    void liquibaseHistoryTableDdl() throws SqlError {
        String lock = "CREATE TABLE PUBLIC.DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED BOOLEAN NOT NULL, "
                + "LOCKGRANTED datetime, LOCKEDBY VARCHAR(255), CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))";
        String log = "CREATE TABLE PUBLIC.DATABASECHANGELOG (ID VARCHAR(255) NOT NULL, AUTHOR VARCHAR(255) NOT NULL, "
                + "FILENAME VARCHAR(255) NOT NULL, DATEEXECUTED datetime NOT NULL, ORDEREXECUTED INT NOT NULL, "
                + "EXECTYPE VARCHAR(10) NOT NULL, MD5SUM VARCHAR(35), DESCRIPTION VARCHAR(255), COMMENTS VARCHAR(255), "
                + "TAG VARCHAR(255), LIQUIBASE VARCHAR(20), CONTEXTS VARCHAR(255), LABELS VARCHAR(255), "
                + "DEPLOYMENT_ID VARCHAR(10))";
        for (String ddl : List.of(lock, log)) {
            SqlError e = fails(SqlState.SYNTAX_ERROR, s, ddl);
            assertTrue(e.getMessage().contains("exactly two columns"), e.getMessage());
        }
        update(s, "CREATE TABLE PUBLIC.LOCK2 (ID INT NOT NULL, LOCKGRANTED datetime, "
                + "CONSTRAINT PK_LOCK2 PRIMARY KEY (ID))");
        update(s, "INSERT INTO lock2 VALUES (1, TIMESTAMP '2026-01-02 03:04:05')");
        assertEquals(List.of(row(1, "2026-01-02 03:04:05")), rows(s, "SELECT id, CAST(lockgranted AS VARCHAR(19)) FROM lock2"));
        assertEquals(List.of(row("INTEGER", "TIMESTAMP(3)")),
                rows(s, "SELECT key_type, value_type FROM sys.tables WHERE table_name = 'LOCK2'"));
    }
}
