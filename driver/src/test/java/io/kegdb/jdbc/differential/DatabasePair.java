package io.kegdb.jdbc.differential;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The same tables in a fresh in-memory KegDB and a fresh in-memory H2, and a query run on both. Each pair has
 * databases of its own (a new name each time), so nothing one pair loaded is seen by the next.
 */
final class DatabasePair implements AutoCloseable {

    /** A database's answer: its rows, or the error it raised. */
    record Outcome(List<String> rows, String error) {
        /** The same rows, or both an error (which error is each database's own business). */
        boolean agrees(Outcome other) {
            return error == null ? other.error == null && rows.equals(other.rows) : other.error != null;
        }

        @Override
        public String toString() {
            return error != null ? "error " + error : rows.size() + " rows " + rows;
        }
    }

    private static final AtomicLong NAMES = new AtomicLong();

    private final Connection kegdb;
    private final Connection h2;

    DatabasePair(List<RandomTable> tables) throws SQLException {
        long name = NAMES.incrementAndGet();
        kegdb = DriverManager.getConnection("jdbc:kegdb:mem:differential" + name);
        Connection h;
        try {
            h = DriverManager.getConnection("jdbc:h2:mem:differential" + name);
            for (RandomTable t : tables) {
                t.load(kegdb);
                t.load(h);
            }
        } catch (SQLException | RuntimeException e) {
            kegdb.close();
            throw e;
        }
        h2 = h;
    }

    Outcome kegdb(SelectGenerator.Query q) {
        return run(kegdb, q);
    }

    Outcome h2(SelectGenerator.Query q) {
        return run(h2, q);
    }

    private static Outcome run(Connection c, SelectGenerator.Query q) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q.sql())) {
            return new Outcome(ResultRows.read(rs, q.ordered()), null);
        } catch (SQLException e) {
            return new Outcome(null, e.getSQLState() + " " + e.getMessage());
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            kegdb.close();
        } finally {
            h2.close();
        }
    }
}
