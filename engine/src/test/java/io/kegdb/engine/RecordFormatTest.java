package io.kegdb.engine;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class RecordFormatTest {

    @Test
    void encodesHeaderKeyValueAndCrc() {
        ByteBuffer buf = ByteBuffer.allocate(100);
        buf.position(SegmentHeader.SIZE);
        RecordFormat.encode(buf, RecordFormat.PUT, new byte[] {1, 2}, new byte[] {9, 8, 7});
        int at = SegmentHeader.SIZE;
        assertEquals(RecordFormat.HEADER_SIZE + 5, buf.position() - at);
        assertEquals(RecordFormat.PUT, RecordFormat.type(buf, at));
        assertEquals(2, RecordFormat.keyLength(buf, at));
        assertEquals(3, RecordFormat.valueLength(buf, at));
        assertTrue(RecordFormat.crcMatches(buf, at, 16));
        for (int i = at; i < at + 16; i++) {
            byte old = buf.get(i);
            buf.put(i, (byte) (old ^ 1));
            assertEquals(-1, SegmentScanner.validRecordSize(buf, at, 100), "flip at " + i + " must be caught");
            buf.put(i, old);
        }
        assertEquals(16, SegmentScanner.validRecordSize(buf, at, 100));
        assertEquals(-1, SegmentScanner.validRecordSize(buf, at, at + 15), "record past the limit");
    }

    @Test
    void scannerDeliversBatchesOnlyWithTheirCommitRecord() {
        ByteBuffer buf = ByteBuffer.allocate(400);
        buf.position(SegmentHeader.SIZE);
        RecordFormat.encode(buf, RecordFormat.PUT, new byte[] {1}, new byte[] {1});
        RecordFormat.encode(buf, RecordFormat.BATCH_PUT, new byte[] {2}, new byte[] {2});
        RecordFormat.encode(buf, RecordFormat.BATCH_DELETE, new byte[] {1}, null);
        RecordFormat.encodeCommit(buf, 2);
        int committedEnd = buf.position();
        RecordFormat.encode(buf, RecordFormat.BATCH_PUT, new byte[] {3}, new byte[] {3});
        int end = buf.position();
        List<Byte> types = new ArrayList<>();
        SegmentScanner.Result r = SegmentScanner.scan(buf, end, false, (type, offset, size) -> types.add(type));
        assertEquals(List.of(RecordFormat.PUT, RecordFormat.BATCH_PUT, RecordFormat.BATCH_DELETE), types);
        assertEquals(committedEnd, r.validEnd());
        assertEquals(committedEnd, r.invalidAt(), "an unfinished batch is a torn tail");
    }

    @Test
    void commitWithWrongCountIsDamage() {
        ByteBuffer buf = ByteBuffer.allocate(400);
        buf.position(SegmentHeader.SIZE);
        RecordFormat.encode(buf, RecordFormat.BATCH_PUT, new byte[] {2}, new byte[] {2});
        RecordFormat.encodeCommit(buf, 3);
        SegmentScanner.Result r = SegmentScanner.scan(buf, buf.position(), false, (t, o, s) -> fail("nothing committed"));
        assertEquals(SegmentHeader.SIZE, r.invalidAt());
    }

    @Test
    void segmentHeaderRoundTripsAndDetectsDamage() throws Exception {
        SegmentHeader h = new SegmentHeader(SegmentHeader.MERGED, 77);
        ByteBuffer b = h.encode();
        assertEquals(h, SegmentHeader.decode(b.duplicate(), java.nio.file.Path.of("x")));
        b.put(13, (byte) 1);
        assertThrows(java.io.IOException.class, () -> SegmentHeader.decode(b, java.nio.file.Path.of("x")));
    }

    @Test
    void locationPacksSegmentAndOffset() {
        int maxOffset = (int) BitcaskOptions.MAX_SEGMENT_SIZE - 1;
        long loc = Location.of(Location.MAX_SEGMENT_ID, maxOffset);
        assertEquals(Location.MAX_SEGMENT_ID, Location.segment(loc));
        assertEquals(maxOffset, Location.offset(loc));
        assertEquals(0, loc >>> Location.BITS, "fits in 56 bits");
        long small = Location.of(3, 24);
        assertEquals(3, Location.segment(small));
        assertEquals(24, Location.offset(small));
    }

    @Test
    void segmentIdsPastTheLimitAreRefused() throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Path.of("store");
        assertEquals(Location.MAX_SEGMENT_ID, Location.checkSegmentId(Location.MAX_SEGMENT_ID, dir));
        java.io.IOException e = assertThrows(java.io.IOException.class,
                () -> Location.checkSegmentId(Location.MAX_SEGMENT_ID + 1, dir));
        assertTrue(e.getMessage().contains("store") && e.getMessage().contains(String.valueOf(Location.MAX_SEGMENT_ID)),
                e.getMessage());
    }
}
