package io.kegdb.sql;

import io.kegdb.engine.KvStore;

import java.util.ArrayList;
import java.util.List;

/**
 * An SQL database over a store and the sessions opened on it, closed together (sessions, database, then
 * the store): the setup most SQL tests share.
 */
final class SqlFixture implements AutoCloseable {

    final KvStore store;
    final SqlDatabase db;
    private final List<SqlSession> sessions = new ArrayList<>();

    private SqlFixture(KvStore store) throws SqlError {
        this.store = store;
        this.db = SqlDatabase.open(store);
    }

    /** A database over a new in-memory store. */
    static SqlFixture inMemory() throws SqlError {
        return over(KvStore.inMemory());
    }

    /** A database over {@code store}, which the fixture closes. */
    static SqlFixture over(KvStore store) throws SqlError {
        return new SqlFixture(store);
    }

    /** A new session, closed with the fixture. */
    SqlSession session() {
        SqlSession s = db.newSession();
        sessions.add(s);
        return s;
    }

    @Override
    public void close() {
        for (SqlSession s : sessions) {
            s.close();
        }
        db.close();
        store.close();
    }
}
