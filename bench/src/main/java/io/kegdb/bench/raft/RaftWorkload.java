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
 * The seed's workloads (hashicorp/raft's bench shapes) on SOFAJRaft's storage interfaces: an untimed setup
 * for {@code n} operations, then operations numbered from 1.
 */
enum RaftWorkload {
    /** Nine entries of "data", then getFirstLogIndex. */
    FIRST_INDEX("FirstIndex", false) {
        @Override
        void setup(StoreFixture f, int n) {
            storeNine(f);
        }

        @Override
        long op(StoreFixture f, int i) {
            return f.log.getFirstLogIndex();
        }
    },
    /** Nine entries of "data", then getLastLogIndex. */
    LAST_INDEX("LastIndex", false) {
        @Override
        void setup(StoreFixture f, int n) {
            storeNine(f);
        }

        @Override
        long op(StoreFixture f, int i) {
            return f.log.getLastLogIndex();
        }
    },
    /** Nine entries of "data", then getEntry(5), decoded. */
    GET_LOG("GetLog", false) {
        @Override
        void setup(StoreFixture f, int n) {
            storeNine(f);
        }

        @Override
        long op(StoreFixture f, int i) {
            return f.log.getEntry(5).getId().getIndex();
        }
    },
    /** One entry per append. */
    STORE_LOG("StoreLog", true) {
        @Override
        long op(StoreFixture f, int i) {
            check(f.log.appendEntry(entry(i)));
            return i;
        }
    },
    /** Three entries per append. */
    STORE_LOGS("StoreLogs", true) {
        @Override
        long op(StoreFixture f, int i) {
            long last = 3L * i;
            check(f.log.appendEntries(List.of(entry(last - 2), entry(last - 1), entry(last))) == 3);
            return i;
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
        long op(StoreFixture f, int i) {
            check(f.log.truncatePrefix(10L * i + 1));
            return i;
        }
    },
    /** The vote, a small value, set each operation. */
    SET("Set", true) {
        @Override
        long op(StoreFixture f, int i) {
            check(f.meta.setVotedFor(PEERS[i & 255]));
            return i;
        }
    },
    /** The vote read back. */
    GET("Get", false, true) {
        @Override
        void setup(StoreFixture f, int n) {
            check(f.meta.setVotedFor(new PeerId("127.0.0.1", 4242)));
        }

        @Override
        long op(StoreFixture f, int i) {
            return f.meta.getVotedFor().getPort();
        }
    },
    /** The term, a uint64, set each operation. */
    SET_UINT64("SetUint64", true) {
        @Override
        long op(StoreFixture f, int i) {
            check(f.meta.setTerm(i));
            return i;
        }
    },
    /** The term read back. */
    GET_UINT64("GetUint64", false, true) {
        @Override
        void setup(StoreFixture f, int n) {
            check(f.meta.setTerm(42));
        }

        @Override
        long op(StoreFixture f, int i) {
            return f.meta.getTerm();
        }
    };

    private static final byte[] DATA = "data".getBytes(StandardCharsets.UTF_8);
    private static final PeerId[] PEERS = new PeerId[256];

    static {
        for (int i = 0; i < PEERS.length; i++) {
            PEERS[i] = new PeerId("127.0.0.1", 1000 + i);
        }
    }

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

    /** Prepares {@code f} for operations 1..n. */
    void setup(StoreFixture f, int n) {
    }

    /** Operation number {@code i}, counting from 1; returns something derived from the result. */
    abstract long op(StoreFixture f, int i);

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

    private static void check(boolean ok) {
        if (!ok) {
            throw new IllegalStateException("storage operation failed");
        }
    }
}
