package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test class of statements over one in-memory database whose store counts its calls ({@link CountingStore}),
 * filled once by the subclass's {@code @BeforeAll} after {@link #open}; the counts are zeroed before each test,
 * and everything is closed after the class.
 */
abstract class CountedStoreTest {

    protected static CountingStore store;
    protected static SqlSession s;
    private static SqlDatabase db;

    /** Opens the counted store, its database and a session; {@code roundTrips} as {@link CountingStore}'s. */
    static void open(boolean roundTrips) throws SqlError {
        store = new CountingStore(KvStore.inMemory(), roundTrips);
        db = SqlDatabase.open(store);
        s = db.newSession();
    }

    @BeforeEach
    void resetCounts() {
        store.reset();
    }

    @AfterAll
    static void closeAll() {
        s.close();
        db.close();
        store.close();
    }
}
