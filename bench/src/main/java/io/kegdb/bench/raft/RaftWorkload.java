package io.kegdb.bench.raft;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.PeerId;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed's workloads (hashicorp/raft's bench shapes) on SOFAJRaft's storage interfaces. Writes are
 * operations that can be timed one by one; reads time a tight loop of their own.
 */
enum RaftWorkload {
    /** Nine entries of "data", then getFirstLogIndex. */
    FIRST_INDEX("FirstIndex", false) {
        @Override
        long run(StoreFixture f, int n) {
            storeNine(f);
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += f.log.getFirstLogIndex();
            }
            return elapsed(start, sink);
        }
    },
    /** Nine entries of "data", then getLastLogIndex. */
    LAST_INDEX("LastIndex", false) {
        @Override
        long run(StoreFixture f, int n) {
            storeNine(f);
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += f.log.getLastLogIndex();
            }
            return elapsed(start, sink);
        }
    },
    /** Nine entries of "data", then getEntry(5), decoded. */
    GET_LOG("GetLog", false) {
        @Override
        long run(StoreFixture f, int n) {
            storeNine(f);
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += f.log.getEntry(5).getId().getIndex();
            }
            return elapsed(start, sink);
        }
    },
    /** One entry per append. */
    STORE_LOG("StoreLog", true) {
        @Override
        void op(StoreFixture f, int i) {
            check(f.log.appendEntry(entry(i)));
        }
    },
    /** Three entries per append. */
    STORE_LOGS("StoreLogs", true) {
        @Override
        void op(StoreFixture f, int i) {
            long last = 3L * i;
            check(f.log.appendEntries(List.of(entry(last - 2), entry(last - 1), entry(last))) == 3);
        }
    },
    /** Three entries every ten indexes, then truncatePrefix moving the first index by ten per operation. */
    DELETE_RANGE("DeleteRange", true) {
        @Override
        void setup(StoreFixture f, int n) {
            List<LogEntry> batch = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int j = 1; j <= 3; j++) {
                    batch.add(entry(10L * i + j));
                }
                if (batch.size() >= 30_000 || i == n - 1) {
                    check(f.log.appendEntries(batch) == batch.size());
                    batch.clear();
                }
            }
        }

        @Override
        void op(StoreFixture f, int i) {
            check(f.log.truncatePrefix(10L * i + 1));
        }
    },
    /** The vote, a small value, set each operation. */
    SET("Set", true) {
        @Override
        void op(StoreFixture f, int i) {
            check(f.meta.setVotedFor(PEERS[i & 255]));
        }
    },
    /** The vote read back. */
    GET("Get", false, true) {
        @Override
        long run(StoreFixture f, int n) {
            check(f.meta.setVotedFor(new PeerId("127.0.0.1", 4242)));
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += f.meta.getVotedFor().getPort();
            }
            return elapsed(start, sink);
        }
    },
    /** The term, a uint64, set each operation. */
    SET_UINT64("SetUint64", true) {
        @Override
        void op(StoreFixture f, int i) {
            check(f.meta.setTerm(i));
        }
    },
    /** The term read back. */
    GET_UINT64("GetUint64", false, true) {
        @Override
        long run(StoreFixture f, int n) {
            check(f.meta.setTerm(42));
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += f.meta.getTerm();
            }
            return elapsed(start, sink);
        }
    };

    private static final byte[] DATA = "data".getBytes(StandardCharsets.UTF_8);
    private static final PeerId[] PEERS = new PeerId[256];

    static {
        for (int i = 0; i < PEERS.length; i++) {
            PEERS[i] = new PeerId("127.0.0.1", 1000 + i);
        }
    }

    /** Keeps results alive so the JIT cannot drop the measured calls. */
    static volatile long blackhole;

    final String label;
    /** Writes something durable: with sync on, an fsync bounds it from below. */
    final boolean writes;

    /** Both stores answer from a field in memory: nothing of the storage is measured. */
    final boolean memoryOnBoth;

    RaftWorkload(String label, boolean writes) {
        this(label, writes, false);
    }

    RaftWorkload(String label, boolean writes, boolean memoryOnBoth) {
        this.label = label;
        this.writes = writes;
        this.memoryOnBoth = memoryOnBoth;
    }

    /**
     * Runs the untimed setup for {@code n} operations, then times them; the nanoseconds they took. The reads
     * override it with a loop of their own, so that nothing but the read is timed.
     */
    long run(StoreFixture f, int n) {
        setup(f, n);
        long start = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            op(f, i);
        }
        return System.nanoTime() - start;
    }

    /** Prepares {@code f} for operations 1..n (writes only). */
    void setup(StoreFixture f, int n) {
    }

    /** Operation number {@code i}, counting from 1 (writes only). */
    void op(StoreFixture f, int i) {
        throw new UnsupportedOperationException(label + " is timed as a whole");
    }

    static LogEntry entry(long index) {
        LogEntry e = new LogEntry(EntryType.ENTRY_TYPE_DATA);
        e.setId(new LogId(index, 1));
        e.setData(ByteBuffer.wrap(DATA));
        return e;
    }

    private static void storeNine(StoreFixture f) {
        List<LogEntry> nine = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            nine.add(entry(i));
        }
        check(f.log.appendEntries(nine) == 9);
    }

    private static long elapsed(long start, long sink) {
        long nanos = System.nanoTime() - start;
        blackhole += sink;
        return nanos;
    }

    private static void check(boolean ok) {
        if (!ok) {
            throw new IllegalStateException("storage operation failed");
        }
    }
}
