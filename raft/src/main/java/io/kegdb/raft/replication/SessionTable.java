package io.kegdb.raft.replication;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What the state machine remembers of each client session, so that a request is applied at most once
 * however often it is sent (Raft dissertation, section 6.3): per session the result of every request the
 * client may still be waiting for, by serial number. A request whose result is here is a duplicate and is
 * answered with that result without being applied again.
 *
 * <p>Everything in it is decided by log entries alone, so every replica holds the same table at the same
 * log index: the client's floor (the lowest serial it still waits for) lets results below it go; the log
 * time (the largest leader clock reading proposed so far, so it never runs backwards) expires sessions idle
 * for {@link #EXPIRY_MS}. It is state derived from the log like the data store, saved in every snapshot
 * beside it, and rebuilt from the snapshot and the log after it at each start.
 *
 * <p>Used by the state machine's thread only (apply, snapshot save and load).
 */
final class SessionTable {

    /** A session unused this long in log time is forgotten; far above any request timeout a client uses. */
    static final long EXPIRY_MS = TimeUnit.HOURS.toMillis(1);
    /** Results kept per session at most; beyond, the oldest goes and the floor passes it. */
    static final int MAX_RESULTS = 4096;
    private static final long SWEEP_INTERVAL_MS = TimeUnit.MINUTES.toMillis(1);
    private static final int FORMAT_VERSION = 1;

    private static final class Session {
        long lastActive;
        long floor;
        final TreeMap<Long, DataStore.Outcome> results = new TreeMap<>();
    }

    private final Map<SessionId, Session> sessions = new HashMap<>();
    private long logTime;
    private long nextSweep;

    /** Moves the log time to an entry's time if that is later, and forgets idle sessions now and then. */
    void advance(long entryTime) {
        if (entryTime > logTime) {
            logTime = entryTime;
        }
        if (logTime >= nextSweep) {
            sessions.values().removeIf(this::expired);
            nextSweep = logTime + SWEEP_INTERVAL_MS;
        }
    }

    /** Opens session {@code id}, or refreshes it when it is open already (a resent opening). */
    void open(SessionId id) {
        Session s = sessions.get(id);
        if (s == null || expired(s)) {
            s = new Session();
            sessions.put(id, s);
        }
        s.lastActive = logTime;
    }

    /**
     * The answer to request {@code serial} of session {@code id} when it must not be applied: the result of
     * its first application (a duplicate), {@link KvResponse#SESSION_UNKNOWN} (never opened or expired), or
     * {@link KvResponse#REQUEST_DISCARDED} (below the floor: an attempt the client gave up on). Null when the
     * request is new: apply it, then {@link #record} its outcome.
     */
    DataStore.Outcome answerWithoutApplying(SessionId id, long serial, long floor) {
        Session s = sessions.get(id);
        if (s == null || expired(s)) {
            sessions.remove(id);
            return new DataStore.Outcome(KvResponse.SESSION_UNKNOWN, null, false);
        }
        s.lastActive = logTime;
        if (floor > s.floor) {
            s.floor = floor;
            s.results.headMap(floor).clear();
        }
        DataStore.Outcome remembered = s.results.get(serial);
        if (remembered != null) {
            return remembered;
        }
        if (serial < s.floor) {
            return new DataStore.Outcome(KvResponse.REQUEST_DISCARDED, null, false);
        }
        return null;
    }

    /** Remembers the outcome of applying request {@code serial} of session {@code id}. */
    void record(SessionId id, long serial, DataStore.Outcome outcome) {
        Session s = sessions.get(id);
        s.results.put(serial, outcome);
        if (s.results.size() > MAX_RESULTS) {
            s.floor = s.results.pollFirstEntry().getKey() + 1;
        }
    }

    private boolean expired(Session s) {
        return s.lastActive + EXPIRY_MS < logTime;
    }

    int size() {
        return sessions.size();
    }

    /** Writes the whole table (a snapshot's copy). */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(FORMAT_VERSION);
        out.writeLong(logTime);
        out.writeLong(nextSweep);
        out.writeInt(sessions.size());
        for (Map.Entry<SessionId, Session> e : sessions.entrySet()) {
            Session s = e.getValue();
            out.writeLong(e.getKey().high());
            out.writeLong(e.getKey().low());
            out.writeLong(s.lastActive);
            out.writeLong(s.floor);
            out.writeInt(s.results.size());
            for (Map.Entry<Long, DataStore.Outcome> r : s.results.entrySet()) {
                DataStore.Outcome o = r.getValue();
                out.writeLong(r.getKey());
                out.writeByte(o.status());
                out.writeBoolean(o.existed());
                byte[] key = o.existingKey();
                out.writeInt(key == null ? -1 : key.length);
                if (key != null) {
                    out.write(key);
                }
            }
        }
    }

    /** Replaces the whole table with one {@link #writeTo} wrote. */
    void readFrom(DataInputStream in) throws IOException {
        int version = in.readInt();
        if (version != FORMAT_VERSION) {
            throw new IOException("session table has format " + version + ", expected " + FORMAT_VERSION);
        }
        Map<SessionId, Session> read = new HashMap<>();
        long time = in.readLong();
        long sweep = in.readLong();
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            SessionId id = new SessionId(in.readLong(), in.readLong());
            Session s = new Session();
            s.lastActive = in.readLong();
            s.floor = in.readLong();
            int results = in.readInt();
            for (int j = 0; j < results; j++) {
                long serial = in.readLong();
                byte status = in.readByte();
                boolean existed = in.readBoolean();
                int length = in.readInt();
                byte[] key = null;
                if (length >= 0) {
                    key = new byte[length];
                    in.readFully(key);
                }
                s.results.put(serial, new DataStore.Outcome(status, key, existed));
            }
            read.put(id, s);
        }
        clear();
        sessions.putAll(read);
        logTime = time;
        nextSweep = sweep;
    }

    /** Forgets everything (a snapshot without sessions is loaded). */
    void clear() {
        sessions.clear();
        logTime = 0;
        nextSweep = 0;
    }

}
