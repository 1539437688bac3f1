package io.kegdb.raft.range;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;

import java.nio.ByteBuffer;

/**
 * Range ids, handed out by the meta range (docs/SCALE.md, "Splits", step 1): an atomic increment of
 * {@link MetaKeys#NEXT_RANGE_ID} by a conditional write. An id is never handed out twice; one taken by a split
 * that then fails is simply never used.
 */
public final class RangeIds {

    /** The first id handed out: range 1 is the meta range. */
    static final long FIRST = 2;
    private static final int ATTEMPTS = 100;

    private RangeIds() {
    }

    /** Takes the next range id from the meta range's store {@code meta}. */
    public static long next(KvStore meta) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            byte[] current = meta.get(MetaKeys.NEXT_RANGE_ID);
            long id = current == null ? FIRST : ByteBuffer.wrap(current).getLong();
            try {
                meta.write(new WriteBatch().expect(MetaKeys.NEXT_RANGE_ID, current)
                        .put(MetaKeys.NEXT_RANGE_ID, ByteBuffer.allocate(Long.BYTES).putLong(id + 1).array()),
                        Durability.SYNC);
                return id;
            } catch (WriteConflictException taken) {
                // another split took it first: read again
            }
        }
        throw new IllegalStateException("no range id after " + ATTEMPTS + " attempts: the meta range's counter kept"
                + " moving");
    }
}
