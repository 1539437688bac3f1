package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks behind {@link Bitcask#verify()} and {@link Bitcask#check}: every segment's header, records and
 * hint file against the format, then (for an open store) the keydir and the live-byte accounting against
 * what replaying the segments gives.
 */
final class StoreAudit {

    /** A region of a segment whose bytes do not count. */
    record Region(int from, int to) {
    }

    /**
     * What scanning one segment found: the regions whose bytes do not count, the committed records, and what
     * is wrong with its hint file (null if nothing, or if it has none).
     */
    record SegmentResult(Segment segment, List<Region> dropped, long records, String hintProblem) {
    }

    private final CheckReport.Builder report;
    private final MaintenanceListener listener;
    private final ReplayedKeys replayed = new ReplayedKeys();

    StoreAudit(CheckReport.Builder report, MaintenanceListener listener) {
        this.report = report;
        this.listener = listener;
    }

    ReplayedKeys replayed() {
        return replayed;
    }

    /**
     * Scans {@code segments} (replay order) and replays their committed records. {@code newestPlain} is the
     * segment whose end may be a torn write; {@code active} (null for a closed store) has no hint yet. Returns
     * one result per segment, in the same order.
     */
    List<SegmentResult> scanSegments(List<Segment> segments, Segment newestPlain, Segment active) throws IOException {
        long total = 0;
        for (Segment s : segments) {
            total += s.length();
        }
        long done = 0;
        List<SegmentResult> results = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            listener.progress(done, total, i, segments.size());
            try {
                SegmentHeader.decode(s.buffer().slice(0, SegmentHeader.SIZE), s.path());
            } catch (IOException e) {
                report.problem(e.getMessage());
            }
            if (s != active && Files.size(s.path()) != s.length()) {
                report.problem(s.path() + ": file is " + Files.size(s.path()) + " bytes, the store reads "
                        + s.length());
            }
            String hint = s == active ? null : HintFile.problem(s);
            if (hint != null) {
                report.problem(hint);
            }
            SegmentResult r = scan(s, hint);
            results.add(r);
            report(r, s == newestPlain);
            done += s.length();
            report.segments++;
            report.bytesScanned += s.length();
        }
        listener.progress(done, total, segments.size(), segments.size());
        report.keysChecked = replayed.size();
        return results;
    }

    private SegmentResult scan(Segment s, String hintProblem) {
        ByteBuffer buf = s.buffer();
        List<Region> dropped = new ArrayList<>();
        long[] records = {0};
        SegmentScanner.scan(buf, (int) s.length(), true, new SegmentScanner.Visitor() {
            @Override
            public void record(byte type, int offset, int size) {
                records[0]++;
                byte[] key = new byte[RecordFormat.keyLength(buf, offset)];
                buf.get(offset + RecordFormat.HEADER_SIZE, key, 0, key.length);
                replayed.apply(key, RecordFormat.isDelete(type), Location.of(s.id(), offset), size);
            }

            @Override
            public void dropped(int from, int to) {
                dropped.add(new Region(from, to));
            }
        });
        report.recordsScanned += records[0];
        return new SegmentResult(s, dropped, records[0], hintProblem);
    }

    private void report(SegmentResult r, boolean mayBeTorn) {
        Segment s = r.segment();
        int tail = mayBeTorn ? tornTail(s, r.dropped()) : -1;
        for (Region d : r.dropped()) {
            if (tail >= 0 && d.from() > tail) {
                continue; // inside the torn tail reported below
            }
            if (d.from() == tail) {
                Region cut = new Region(tail, (int) s.length());
                if (isZero(s.buffer(), cut)) {
                    report.note(s.path() + ": " + (cut.to() - cut.from()) + " bytes of unwritten space after offset "
                            + cut.from() + " (left by a crash; open cuts it)");
                } else {
                    report.problem(s.path() + ": torn tail at offset " + cut.from() + " (" + (cut.to() - cut.from())
                            + " bytes after the last complete record; open and repair cut it)");
                }
            } else {
                report.problem(s.path() + ": damaged data at offset " + d.from() + ".." + d.to() + " ("
                        + (d.to() - d.from()) + " bytes; the records there do not count)");
            }
        }
    }

    /**
     * Where the torn tail of the newest plain segment {@code s} starts (open cuts everything from there), or
     * -1: at the first damaged region at or above the segment's durable mark (written since the last fsync,
     * so a power cut may have torn it), else at the last region if it runs to the end of the segment.
     */
    static int tornTail(Segment s, List<Region> dropped) {
        for (Region d : dropped) {
            if (d.from() >= s.header().tornFrom()) {
                return d.from();
            }
        }
        Region last = dropped.isEmpty() ? null : dropped.get(dropped.size() - 1);
        return last != null && last.to() == s.length() ? last.from() : -1;
    }

    static boolean isZero(ByteBuffer buf, Region r) {
        for (int i = r.from(); i < r.to(); i++) {
            if (buf.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks an open store's keydir against the replayed segments (every entry's record valid, a put of that
     * key, the one replay ends at; no live key missing) and each segment's accounted live bytes against the
     * sum of the records the keydir points at.
     */
    void compareWithKeyDir(KeyDir keyDir, SegmentTable table) {
        Map<Integer, Long> live = new HashMap<>();
        long keys = 0;
        KeyDir.Cursor c = keyDir.cursor(null, null, false);
        while (c.next()) {
            keys++;
            byte[] key = c.key();
            long loc = c.location();
            Segment s = table.get(Location.segment(loc));
            int offset = Location.offset(loc);
            if (s == null) {
                report.problem("key " + describe(key) + ": keydir points at segment " + Location.segment(loc)
                        + " offset " + offset + ", which the store does not have");
                continue;
            }
            int size = SegmentScanner.validRecordSize(s.buffer(), offset, (int) s.length());
            if (size < 0 || !RecordFormat.isPut(RecordFormat.type(s.buffer(), offset))
                    || !s.buffer().slice(offset + RecordFormat.HEADER_SIZE, RecordFormat.keyLength(s.buffer(), offset))
                            .equals(ByteBuffer.wrap(key))) {
                report.problem("key " + describe(key) + ": keydir points at " + s.path() + " offset " + offset
                        + ", which holds no valid put record of that key");
                continue;
            }
            live.merge(s.id(), (long) size, Long::sum);
            ReplayedKeys.Entry e = replayed.get(key);
            if (e == null) {
                report.problem("key " + describe(key) + ": keydir points at " + s.path() + " offset " + offset
                        + " but replaying the segments deletes it (it would vanish on restart)");
            } else if (e.location() != loc) {
                report.problem("key " + describe(key) + ": keydir points at " + s.path() + " offset " + offset
                        + " but replaying the segments ends at " + where(table, e.location())
                        + " (a restart would change its value)");
            }
        }
        if (keys != keyDir.size()) {
            report.problem("keydir counts " + keyDir.size() + " keys but holds " + keys);
        }
        if (replayed.size() > keys) {
            for (Map.Entry<ByteBuffer, ReplayedKeys.Entry> e : replayed.entries().entrySet()) {
                byte[] key = new byte[e.getKey().remaining()];
                e.getKey().duplicate().get(key);
                if (keyDir.get(key) == KeyDir.NONE) {
                    report.problem("key " + describe(key) + " is not in the keydir but replaying the segments "
                            + "ends at a live record at " + where(table, e.getValue().location())
                            + " (it would come back on restart)");
                }
            }
        }
        report.keysChecked = keys;
        for (Segment s : table.all()) {
            long counted = live.getOrDefault(s.id(), 0L);
            long dead = s.length() - SegmentHeader.SIZE - counted;
            if (s.liveBytes() != counted || s.deadBytes() != dead) {
                report.problem(s.path() + ": accounting says " + s.liveBytes() + " live and " + s.deadBytes()
                        + " dead bytes; its records say " + counted + " live and " + dead + " dead");
            }
        }
    }

    private static String where(SegmentTable table, long location) {
        Segment s = table.get(Location.segment(location));
        return (s == null ? "segment " + Location.segment(location) : s.path().toString()) + " offset "
                + Location.offset(location);
    }

    /** A key for a message: quoted if it is short printable ASCII, else hex. */
    static String describe(byte[] key) {
        boolean printable = key.length <= 64;
        for (int i = 0; i < key.length && printable; i++) {
            printable = key[i] >= 0x20 && key[i] < 0x7F && key[i] != '\'';
        }
        if (printable) {
            return "'" + new String(key, java.nio.charset.StandardCharsets.US_ASCII) + "'";
        }
        StringBuilder sb = new StringBuilder("0x");
        for (int i = 0; i < Math.min(key.length, 32); i++) {
            sb.append(String.format("%02x", key[i]));
        }
        return key.length > 32 ? sb.append("... (").append(key.length).append(" bytes)").toString() : sb.toString();
    }
}
