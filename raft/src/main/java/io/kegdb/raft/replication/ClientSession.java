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
    /** Serials begun and not ended; entered with their serial under this object's lock. */
    private final ConcurrentSkipListSet<Long> inProgress = new ConcurrentSkipListSet<>();
    private volatile SessionId id;

    /**
     * A new write's serial, counted in progress until {@link #end}. Taking the serial and entering it are
     * one step under the lock {@link #floor} takes too: a floor never passes a serial handed out but not
     * yet entered (the state machine would refuse that write as abandoned).
     */
    synchronized long begin() {
        long serial = serials.incrementAndGet();
        inProgress.add(serial);
        return serial;
    }

    void end(long serial) {
        inProgress.remove(serial);
    }

    /** The lowest serial still in progress (at most the serial of any write being sent now). */
    synchronized long floor() {
        Long lowest = inProgress.ceiling(Long.MIN_VALUE);
        return lowest == null ? serials.get() + 1 : lowest;
    }

    /** The open session, or null before the first opening. */
    SessionId id() {
        return id;
    }

    void opened(SessionId id) {
        this.id = id;
    }
}
