package io.kegdb.engine;

import java.nio.ByteBuffer;

/**
 * Reads a segment's records front to back and reports the committed ones: plain records at once, batch
 * members only when their commit record arrives. Stops at the first record whose framing or CRC is
 * wrong, or, in repair mode, skips ahead to the next record that checks out.
 */
final class SegmentScanner {

    /** Receives committed records in file order. */
    interface Visitor {
        void record(byte type, int offset, int size);

        /**
         * A region whose records do not count: damaged bytes skipped in repair mode (from the first bad record,
         * or the start of the batch it interrupted, to the next valid record or the limit), or a batch left
         * without its commit record at the limit. Reported in file order.
         */
        default void dropped(int from, int to) {
        }
    }

    /**
     * Outcome of a scan.
     *
     * @param validEnd  end of the last complete record or committed batch before {@code invalidAt}
     * @param invalidAt where the data stops counting: the first bad record, or the start of the batch it
     *                  interrupted, or of a batch cut off by the limit; -1 if the scan reached the limit cleanly
     * @param skipped   bad regions skipped in repair mode
     * @param badAt     offset of the first record that failed its checks, or the limit when only a batch's
     *                  commit record was missing; -1 if clean. Valid records after it mean damage, not a torn tail
     */
    record Result(int validEnd, int invalidAt, int skipped, int badAt) {
        boolean clean() {
            return invalidAt < 0;
        }
    }

    private SegmentScanner() {
    }

    static Result scan(ByteBuffer buf, int limit, boolean repair, Visitor visitor) {
        int p = SegmentHeader.SIZE;
        int validEnd = p;
        int firstInvalid = -1;
        int firstBad = -1;
        int skipped = 0;
        int batchStart = -1;
        int[] members = new int[16];
        int count = 0;
        while (p < limit) {
            int size = validRecordSize(buf, p, limit);
            byte type = size > 0 ? RecordFormat.type(buf, p) : 0;
            boolean framingError = size < 0
                    || (batchStart >= 0 && !RecordFormat.isBatchMember(type) && type != RecordFormat.BATCH_COMMIT)
                    || (batchStart < 0 && type == RecordFormat.BATCH_COMMIT)
                    || (type == RecordFormat.BATCH_COMMIT && buf.getInt(p + RecordFormat.HEADER_SIZE) != count);
            if (framingError) {
                int bad = batchStart >= 0 ? batchStart : p;
                if (!repair) {
                    return new Result(validEnd, bad, skipped, p);
                }
                if (firstInvalid < 0) {
                    firstInvalid = bad;
                    firstBad = p;
                }
                skipped++;
                batchStart = -1;
                count = 0;
                int next = nextValidRecord(buf, p + 1, limit);
                visitor.dropped(bad, next < 0 ? limit : next);
                if (next < 0) {
                    return new Result(validEnd, firstInvalid, skipped, firstBad);
                }
                p = next;
                continue;
            }
            if (RecordFormat.isBatchMember(type)) {
                if (batchStart < 0) {
                    batchStart = p;
                }
                if (count == members.length) {
                    members = java.util.Arrays.copyOf(members, count * 2);
                }
                members[count++] = p;
            } else if (type == RecordFormat.BATCH_COMMIT) {
                for (int i = 0; i < count; i++) {
                    int m = members[i];
                    visitor.record(RecordFormat.type(buf, m), m, RecordFormat.recordSize(buf, m));
                }
                batchStart = -1;
                count = 0;
                validEnd = p + size;
            } else {
                visitor.record(type, p, size);
                validEnd = p + size;
            }
            p += size;
        }
        if (batchStart >= 0) {
            // A batch without its commit record: never acknowledged, so it never happened.
            visitor.dropped(batchStart, limit);
            return firstInvalid >= 0
                    ? new Result(validEnd, firstInvalid, skipped, firstBad)
                    : new Result(validEnd, batchStart, skipped, limit);
        }
        return new Result(validEnd, firstInvalid, skipped, firstBad);
    }

    /** Size of the record at {@code p} if its framing and CRC are right and it ends by {@code limit}; else -1. */
    static int validRecordSize(ByteBuffer buf, int p, int limit) {
        if ((long) p + RecordFormat.HEADER_SIZE > limit) {
            return -1;
        }
        byte type = RecordFormat.type(buf, p);
        if (!RecordFormat.isValidType(type)) {
            return -1;
        }
        int keyLen = RecordFormat.keyLength(buf, p);
        int valueLen = RecordFormat.valueLength(buf, p);
        if (valueLen < 0) {
            return -1;
        }
        long size = (long) RecordFormat.HEADER_SIZE + keyLen + valueLen;
        if (p + size > limit) {
            return -1;
        }
        if (type == RecordFormat.BATCH_COMMIT && (keyLen != 0 || valueLen != 4)) {
            return -1;
        }
        if (RecordFormat.isDelete(type) && valueLen != 0) {
            return -1;
        }
        return RecordFormat.crcMatches(buf, p, (int) size) ? (int) size : -1;
    }

    /** The first offset at or after {@code from} holding a valid record, or -1. */
    static int nextValidRecord(ByteBuffer buf, int from, int limit) {
        for (int q = Math.max(from, SegmentHeader.SIZE); q + RecordFormat.HEADER_SIZE <= limit; q++) {
            if (RecordFormat.isValidType(buf.get(q + 4)) && validRecordSize(buf, q, limit) > 0) {
                return q;
            }
        }
        return -1;
    }
}
