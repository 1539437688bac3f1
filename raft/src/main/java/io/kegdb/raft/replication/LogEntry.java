package io.kegdb.raft.replication;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One client request as the leader puts it into the Raft log: the request's client session and serial
 * number, the lowest serial that session still waits for, the leader's clock when it proposed the entry
 * (the log time sessions expire by), the range and generation the request named (checked when the entry is
 * applied, see {@link io.kegdb.raft.range.RouteCheck}) and, for a write, the {@link BatchCodec} bytes. The
 * same format carries the range's own commands ({@link #INIT_DESCRIPTOR}, {@link #FENCE}, {@link #SPLIT}).
 *
 * <p>Format (version {@value #VERSION}; version 2, written before ranges, has no range and generation and
 * reads as naming no range; a first byte of 1 is a {@link BatchCodec} entry without a session, as written
 * before sessions existed, and still applies the same way):
 * <pre>
 *   byte    version (3)
 *   byte    kind: 1 write, 2 open session, 3 initial range descriptor, 4 catalog fence, 5 split
 *   long    log time (ms since the epoch, the proposing leader's clock)
 *   long    session id, high 64 bits
 *   long    session id, low 64 bits
 *   long    serial (write: &ge; 1; otherwise 0)
 *   long    lowest serial the session still waits for (results below it may be forgotten)
 *   long    range id the request named (0: none)              -- version 3 only
 *   long    the range's generation the request named           -- version 3 only
 *   ...     write: the BatchCodec bytes to the end; initial descriptor: its stored form; catalog fence: the
 *           {@link io.kegdb.raft.range.CatalogFence.Command}'s; split: the {@link io.kegdb.raft.range.SplitCommand}'s
 * </pre>
 * All longs big-endian. An older node cannot read version 3: nodes are upgraded before clients, and a group's
 * nodes together (see docs/SCALE.md).
 */
record LogEntry(byte kind, long time, SessionId session, long serial, long floor, long range, long generation,
                byte[] batch) {

    static final byte VERSION = 3;
    private static final byte VERSION_2 = 2;
    static final byte WRITE = 1;
    static final byte OPEN_SESSION = 2;
    /** The descriptor a range begins with, installed by a replica that holds none (docs/SCALE.md). */
    static final byte INIT_DESCRIPTOR = 3;
    /** A range's catalog fence advanced, and what the DDL up to it deleted removed (docs/SCALE.md). */
    static final byte FENCE = 4;
    /** The range splits in two (docs/SCALE.md, "Splits"): a {@link io.kegdb.raft.range.SplitCommand}. */
    static final byte SPLIT = 5;
    private static final int HEADER_2 = 2 + 5 * Long.BYTES;
    private static final int HEADER = HEADER_2 + 2 * Long.BYTES;
    private static final SessionId NONE = new SessionId(0, 0);

    static LogEntry write(long time, SessionId session, long serial, long floor, long range, long generation,
                          byte[] batch) {
        return new LogEntry(WRITE, time, session, serial, floor, range, generation, batch);
    }

    static LogEntry openSession(long time, SessionId session) {
        return new LogEntry(OPEN_SESSION, time, session, 0, 0, 0, 0, new byte[0]);
    }

    static LogEntry initDescriptor(long time, byte[] descriptor) {
        return new LogEntry(INIT_DESCRIPTOR, time, NONE, 0, 0, 0, 0, descriptor);
    }

    static LogEntry split(long time, byte[] command) {
        return new LogEntry(SPLIT, time, NONE, 0, 0, 0, 0, command);
    }

    static LogEntry fence(long time, byte[] command) {
        return new LogEntry(FENCE, time, NONE, 0, 0, 0, 0, command);
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(HEADER + batch.length);
        out.put(VERSION).put(kind).putLong(time).putLong(session.high()).putLong(session.low())
                .putLong(serial).putLong(floor).putLong(range).putLong(generation).put(batch);
        return out.array();
    }

    /** True if {@code bytes} is an entry of this format, false for a session-less {@link BatchCodec} entry. */
    static boolean isSessionEntry(byte[] bytes) {
        return bytes.length > 0 && (bytes[0] == VERSION || bytes[0] == VERSION_2);
    }

    static LogEntry decode(byte[] bytes) {
        byte version = bytes.length == 0 ? 0 : bytes[0];
        int header = version == VERSION ? HEADER : HEADER_2;
        if (bytes.length < header || (version != VERSION && version != VERSION_2)) {
            throw new IllegalArgumentException("log entry of " + bytes.length + " bytes is not a version "
                    + VERSION_2 + " or " + VERSION + " entry");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        in.get();
        byte kind = in.get();
        if (kind != WRITE && kind != OPEN_SESSION && ((kind != INIT_DESCRIPTOR && kind != FENCE && kind != SPLIT)
                || version != VERSION)) {
            throw new IllegalArgumentException("log entry has unknown kind " + kind);
        }
        long time = in.getLong();
        SessionId session = new SessionId(in.getLong(), in.getLong());
        long serial = in.getLong();
        long floor = in.getLong();
        long range = version == VERSION ? in.getLong() : 0;
        long generation = version == VERSION ? in.getLong() : 0;
        return new LogEntry(kind, time, session, serial, floor, range, generation,
                Arrays.copyOfRange(bytes, header, bytes.length));
    }
}
