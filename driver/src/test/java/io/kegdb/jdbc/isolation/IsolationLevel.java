package io.kegdb.jdbc.isolation;

import java.sql.Connection;

/** The isolation levels KegDB offers, as JDBC numbers them. */
enum IsolationLevel {
    READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),
    REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ),
    SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE);

    private final int jdbc;

    IsolationLevel(int jdbc) {
        this.jdbc = jdbc;
    }

    int jdbc() {
        return jdbc;
    }

    /** Whether a transaction at this level must fail at commit when a value it read changed before it committed. */
    boolean preventsLostUpdate() {
        return this != READ_COMMITTED;
    }
}
