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
        long loc = Location.of(123_456_789, Integer.MAX_VALUE);
        assertEquals(123_456_789, Location.segment(loc));
        assertEquals(Integer.MAX_VALUE, Location.offset(loc));
        assertTrue(loc >= 0);
    }
}
