package io.kegdb.sql.txn;

import io.kegdb.engine.WriteBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a transaction (or an autocommitted statement) read and must find unchanged when it commits: point
 * reads as key and value seen, range reads as bounds and {@link io.kegdb.engine.RangeDigest}. At commit they
 * become the batch's preconditions ({@link #addTo}), checked by the store atomically with the apply.
 * Not thread-safe, like the session that owns it.
 */
public final class ReadSet {

    /** Stands for "read as absent" in {@link #points} (compared by identity). */
    private static final byte[] ABSENT = new byte[0];

    private final Map<ByteBuffer, byte[]> points = new HashMap<>();
    private final List<Range> ranges = new ArrayList<>();
    /** Range reads still in progress: a cursor never closed still counts, up to where it got. */
    private final List<RecordingView.RecordingScan> open = new ArrayList<>();

    record Range(byte[] from, byte[] to, long digest) {
    }

    /** Records that {@code key} read {@code value} (null: absent); the first read of a key is the one kept. */
    void point(byte[] key, byte[] value) {
        points.putIfAbsent(ByteBuffer.wrap(key), value == null ? ABSENT : value);
    }

    /** Records that the pairs of {@code [from, to)} had {@code digest}. */
    void range(byte[] from, byte[] to, long digest) {
        ranges.add(new Range(from, to, digest));
    }

    void opened(RecordingView.RecordingScan scan) {
        open.add(scan);
    }

    void closed(RecordingView.RecordingScan scan) {
        open.remove(scan);
    }

    /** Whether {@code key} was read (as present or absent). */
    public boolean readKey(byte[] key) {
        return points.containsKey(ByteBuffer.wrap(key));
    }

    /** What was read of {@code key}: present, absent, or {@link Presence#UNKNOWN} when it was not read. */
    public Presence presence(byte[] key) {
        byte[] value = points.get(ByteBuffer.wrap(key));
        return value == null ? Presence.UNKNOWN : Presence.of(value != ABSENT);
    }

    /** Whether nothing was read. */
    public boolean isEmpty() {
        return points.isEmpty() && ranges.isEmpty() && open.isEmpty();
    }

    /** Adds every read as a precondition of {@code batch}; cursors still open count as far as they read. */
    public void addTo(WriteBatch batch) {
        for (RecordingView.RecordingScan scan : List.copyOf(open)) {
            scan.close();
        }
        points.forEach((key, value) -> batch.expect(key.array(), value == ABSENT ? null : value));
        for (Range r : ranges) {
            batch.expectRange(r.from(), r.to(), r.digest());
        }
    }

    public void clear() {
        points.clear();
        ranges.clear();
        open.clear();
    }
}
