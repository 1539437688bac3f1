package io.kegdb.jdbc.isolation;

import org.junit.jupiter.params.provider.Arguments;

import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The stores of one test class, opened on first use and closed after the class: a Raft group takes seconds
 * to start, so its tests share it (each on its own tables).
 */
final class OpenStores implements AutoCloseable {

    private final Map<StoreKind, TestStore> open = new EnumMap<>(StoreKind.class);

    synchronized TestStore get(StoreKind kind) {
        return open.computeIfAbsent(kind, TestStore::open);
    }

    /** Every store kind with every one of {@code levels}: arguments of a parameterised test. */
    static Stream<Arguments> kindsAnd(IsolationLevel... levels) {
        return Stream.of(StoreKind.values()).flatMap(k -> Stream.of(levels).map(l -> Arguments.of(k, l)));
    }

    @Override
    public synchronized void close() throws SQLException {
        SQLException first = null;
        for (TestStore s : open.values()) {
            try {
                s.close();
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
