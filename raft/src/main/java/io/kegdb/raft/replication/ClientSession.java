package io.kegdb.raft.replication;

import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client's side of its session with the group: the session id (null until opened), the next serial
 * number, and the serials of the writes still in progress, whose lowest is the floor each write carries so
 * that the state machine may forget the results of the writes this client no longer waits for. Shared by
 * all threads of one client store.
 */
final class ClientSession {

    private final AtomicLong serials = new AtomicLong();
    private final ConcurrentSkipListSet<Long> inProgress = new ConcurrentSkipListSet<>();
    private volatile SessionId id;

    /** A new write's serial, counted in progress until {@link #end}. */
    long begin() {
        long serial = serials.incrementAndGet();
        inProgress.add(serial);
        return serial;
    }

    void end(long serial) {
        inProgress.remove(serial);
    }

    /** The lowest serial still in progress (at most the serial of any write being sent now). */
    long floor() {
        long next = serials.get() + 1; // read first: a write begun after this has a larger serial anyway
        Long lowest = inProgress.ceiling(Long.MIN_VALUE);
        return lowest == null ? next : Math.min(lowest, next);
    }

    /** The open session, or null before the first opening. */
    SessionId id() {
        return id;
    }

    void opened(SessionId id) {
        this.id = id;
    }
}
