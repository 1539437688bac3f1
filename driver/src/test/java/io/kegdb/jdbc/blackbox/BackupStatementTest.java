package io.kegdb.jdbc.blackbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code BACKUP TO 'dir'}: a hot backup from any connection, while other connections read and write. */
class BackupStatementTest {

    @TempDir
    Path tmp;

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    @Test
    void backupOfALiveDatabaseHoldsItsCommittedRowsAndOpensAsADatabase() throws Exception {
        String url = "jdbc:kegdb:" + tmp.resolve("db");
        Path target = tmp.resolve("backup-1");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        try (Connection c = DriverManager.getConnection(url);
             Connection writer = DriverManager.getConnection(url);
             Connection pending = DriverManager.getConnection(url)) {
            c.createStatement().executeUpdate("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO T VALUES (?, 'before')")) {
                for (int i = 0; i < 500; i++) {
                    ins.setLong(1, i);
                    ins.executeUpdate();
                }
            }
            pending.setAutoCommit(false);
            pending.createStatement().executeUpdate("INSERT INTO KV VALUES ('uncommitted', 'x')");
            // another connection keeps writing during the backup: the backup does not stop it
            Thread load = new Thread(() -> {
                try (PreparedStatement ins = writer.prepareStatement("INSERT INTO T VALUES (?, 'during')")) {
                    for (long k = 1_000; !stop.get(); k++) {
                        ins.setLong(1, k);
                        ins.executeUpdate();
                        written.incrementAndGet();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            load.start();
            try (Statement s = c.createStatement()) {
                while (written.get() < 50) {
                    Thread.onSpinWait();
                }
                assertEquals(0, s.executeUpdate("BACKUP TO '" + target + "'"));
            } finally {
                stop.set(true);
                load.join(10_000);
            }
            pending.commit();
            assertTrue(count(c, "SELECT COUNT(*) FROM T") >= 550);

            SQLException again = assertThrows(SQLException.class, () -> c.createStatement().execute("BACKUP TO '" + target + "'"));
            assertEquals("58030", again.getSQLState());
            assertTrue(again.getMessage().contains("already holds a store"), again.getMessage());
        }
        try (Connection copy = DriverManager.getConnection("jdbc:kegdb:" + target)) {
            assertEquals(500, count(copy, "SELECT COUNT(*) FROM T WHERE V = 'before'"));
            long during = count(copy, "SELECT COUNT(*) FROM T WHERE V = 'during'");
            if (during > 0) {
                assertEquals(1_000 + during - 1, count(copy, "SELECT MAX(K) FROM T"),
                        "the rows written during the backup that it holds are a prefix of them, without gaps");
            }
            assertEquals(0, count(copy, "SELECT COUNT(*) FROM KV WHERE K = 'uncommitted'"), "uncommitted writes stay out");
        }
    }

    @Test
    void aDatabaseWithoutLocalFilesSaysWhatBackupToNeeds() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:backup-test")) {
            SQLException e = assertThrows(SQLException.class, () -> c.createStatement().execute("BACKUP TO '" + tmp.resolve("b") + "'"));
            assertEquals("42000", e.getSQLState());
            assertTrue(e.getMessage().startsWith("BACKUP TO needs a local store (a jdbc:kegdb:DIR database)"), e.getMessage());
        }
    }

    @Test
    void backupToWithoutADirectoryIsASyntaxError() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:backup-syntax-test")) {
            SQLException e = assertThrows(SQLException.class, () -> c.createStatement().execute("BACKUP TO"));
            assertEquals("42000", e.getSQLState());
            assertEquals("syntax error at position 10: expected the target directory as a string literal, e.g. BACKUP TO"
                    + " 'backup-1', found end of statement", e.getMessage());
        }
    }
}
