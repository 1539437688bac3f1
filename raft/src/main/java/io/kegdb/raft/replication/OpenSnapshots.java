package io.kegdb.raft.replication;

import io.kegdb.engine.KvSnapshot;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The snapshots one node holds open for clients' transactions ({@link KvRequest#SNAPSHOT_OPEN}), by id. A
 * client that vanished cannot close its snapshot, so one left unused for {@link #IDLE_LIMIT_NANOS} is
 * closed at the next open. Ids start at a random point so a restarted node never answers for another
 * run's snapshot.
 */
final class OpenSnapshots {

    static final long IDLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private static final class Entry {
        final KvSnapshot snapshot;
        volatile long lastUsed = System.nanoTime();

        Entry(KvSnapshot snapshot) {
            this.snapshot = snapshot;
        }
    }

    private final Map<Long, Entry> open = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(new SecureRandom().nextLong() & Long.MAX_VALUE >>> 1 | 1);

    long add(KvSnapshot snapshot) {
        closeIdle();
        long id = ids.getAndIncrement();
        open.put(id, new Entry(snapshot));
        return id;
    }

    /** The snapshot {@code id}, or null if it is not open here. */
    KvSnapshot get(long id) {
        Entry e = open.get(id);
        if (e == null) {
            return null;
        }
        e.lastUsed = System.nanoTime();
        return e.snapshot;
    }

    void close(long id) {
        Entry e = open.remove(id);
        if (e != null) {
            e.snapshot.close();
        }
    }

    private void closeIdle() {
        long now = System.nanoTime();
        open.entrySet().removeIf(e -> {
            boolean idle = now - e.getValue().lastUsed > IDLE_LIMIT_NANOS;
            if (idle) {
                e.getValue().snapshot.close();
            }
            return idle;
        });
    }
}
