package io.kegdb.jdbc.isolation;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

/** What a transaction that cannot be serialized must end with: SQLTransactionRollbackException, SQLState 40001. */
final class SerializationFailure {

    static final String SQL_STATE = "40001";

    private SerializationFailure() {
    }

    /** An action on a connection that may fail with an SQLException. */
    @FunctionalInterface
    interface SqlAction {
        void run() throws SQLException;
    }

    /** Whether {@code e} is a serialization failure: the only failure a retry loop may retry. */
    static boolean is(SQLException e) {
        return SQL_STATE.equals(e.getSQLState());
    }

    /** Runs {@code commit}, which must fail with a serialization failure; {@code anomaly} names what it prevents. */
    static void expect(String anomaly, SqlAction commit) {
        try {
            commit.run();
        } catch (SQLException e) {
            assertEquals(SQL_STATE, e.getSQLState(), anomaly + ": wrong SQLState of " + e);
            assertInstanceOf(SQLTransactionRollbackException.class, e, anomaly + ": wrong exception class");
            return;
        }
        fail(anomaly + ": the commit succeeded; it must fail with SQLState " + SQL_STATE);
    }
}
