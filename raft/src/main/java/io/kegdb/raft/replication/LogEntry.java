package io.kegdb.raft.replication;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One client request as the leader puts it into the Raft log: the request's client session and serial
 * number, the lowest serial that session still waits for, the leader's clock when it proposed the entry
 * (the log time sessions expire by) and, for a write, the {@link BatchCodec} bytes.
 *
 * <p>Format (version {@value #VERSION}; a first byte of 1 is a {@link BatchCodec} entry without a session,
 * as written before sessions existed, and still applies the same way):
 * <pre>
 *   byte    version (2)
 *   byte    kind: 1 write, 2 open session
 *   long    log time (ms since the epoch, the proposing leader's clock)
 *   long    session id, high 64 bits
 *   long    session id, low 64 bits
 *   long    serial (write: &ge; 1; open session: 0)
 *   long    lowest serial the session still waits for (results below it may be forgotten)
 *   ...     write: the BatchCodec bytes to the end
 * </pre>
 * All longs big-endian.
 */
record LogEntry(byte kind, long time, SessionId session, long serial, long floor, byte[] batch) {

    static final byte VERSION = 2;
    static final byte WRITE = 1;
    static final byte OPEN_SESSION = 2;
    private static final int HEADER = 2 + 5 * Long.BYTES;

    static LogEntry write(long time, SessionId session, long serial, long floor, byte[] batch) {
        return new LogEntry(WRITE, time, session, serial, floor, batch);
    }

    static LogEntry openSession(long time, SessionId session) {
        return new LogEntry(OPEN_SESSION, time, session, 0, 0, new byte[0]);
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(HEADER + batch.length);
        out.put(VERSION).put(kind).putLong(time).putLong(session.high()).putLong(session.low())
                .putLong(serial).putLong(floor).put(batch);
        return out.array();
    }

    /** True if {@code bytes} is an entry of this format, false for a session-less {@link BatchCodec} entry. */
    static boolean isSessionEntry(byte[] bytes) {
        return bytes.length > 0 && bytes[0] == VERSION;
    }

    static LogEntry decode(byte[] bytes) {
        if (bytes.length < HEADER || bytes[0] != VERSION) {
            throw new IllegalArgumentException("log entry of " + bytes.length + " bytes is not a version "
                    + VERSION + " entry");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        in.get();
        byte kind = in.get();
        if (kind != WRITE && kind != OPEN_SESSION) {
            throw new IllegalArgumentException("log entry has unknown kind " + kind);
        }
        long time = in.getLong();
        SessionId session = new SessionId(in.getLong(), in.getLong());
        long serial = in.getLong();
        long floor = in.getLong();
        return new LogEntry(kind, time, session, serial, floor, Arrays.copyOfRange(bytes, HEADER, bytes.length));
    }
}
