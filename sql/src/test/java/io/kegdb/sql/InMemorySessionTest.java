package io.kegdb.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test of statements on one session of a new in-memory database ({@link SqlFixture}), opened before each test
 * and closed after it. A subclass's own {@code @BeforeEach} runs after this one's, with {@link #s} open.
 */
abstract class InMemorySessionTest {

    protected SqlFixture sql;
    protected SqlSession s;

    @BeforeEach
    void openSession() throws SqlError {
        sql = SqlFixture.inMemory();
        s = sql.session();
    }

    @AfterEach
    void closeSession() {
        sql.close();
    }
}
