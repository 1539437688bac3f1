package io.kegdb.bench.txn;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs work against a target again whenever the target reports a conflict, counting the retries. */
final class ConflictRetry {

    /** Statements run as one attempt. */
    interface Attempt {
        void run() throws SQLException;
    }

    private final ContendedTarget target;

    ConflictRetry(ContendedTarget target) {
        this.target = target;
    }

    /** Runs {@code attempt} until it ends without a conflict; returns the retries it took. */
    long untilDone(Attempt attempt) throws SQLException {
        for (long retries = 0; ; retries++) {
            try {
                attempt.run();
                return retries;
            } catch (SQLException e) {
                if (!target.retryable(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Runs {@code body} in a SERIALIZABLE transaction on {@code c} and commits, rolling back and running it again
     * on a conflict; returns the retries it took. {@code c} is back in autocommit mode afterwards.
     */
    long serializable(Connection c, Attempt body) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        try {
            return untilDone(() -> {
                try {
                    body.run();
                    c.commit();
                } catch (SQLException e) {
                    c.rollback();
                    throw e;
                }
            });
        } finally {
            c.setAutoCommit(true);
        }
    }
}
