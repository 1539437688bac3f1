package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every committed record of an undamaged store, per key in replay order, read straight from the bytes (not
 * through the engine's scanner): the oracle that says which values a damaged copy of the store may show.
 */
final class StoreHistory {

    /**
     * One committed record. {@code [from, to)} is what must be intact for it to count: the record itself, or
     * its whole batch (members and commit record).
     */
    record Rec(String file, int from, int to, int recordFrom, int recordTo, boolean tombstone, String value) {
    }

    /** Damaged byte ranges per file name; a range touching bytes 0..23 of a data file damages its header. */
    static final class Damage {
        final Map<String, List<int[]>> ranges = new HashMap<>();

        void add(String file, int from, int to) {
            ranges.computeIfAbsent(file, f -> new ArrayList<>()).add(new int[] {from, to});
        }

        boolean hits(Rec r) {
            for (int[] d : ranges.getOrDefault(r.file(), List.of())) {
                if (d[0] < r.to() && r.from() < d[1]) {
                    return true;
                }
            }
            return headerDamaged(r.file());
        }

        /** True if the record's own bytes are damaged (whatever the rest of its batch). */
        boolean hitsOwnBytes(Rec r) {
            for (int[] d : ranges.getOrDefault(r.file(), List.of())) {
                if (d[0] < r.recordTo() && r.recordFrom() < d[1]) {
                    return true;
                }
            }
            return false;
        }

        boolean headerDamaged(String file) {
            for (int[] d : ranges.getOrDefault(file, List.of())) {
                if (d[0] < SegmentHeader.SIZE && file.endsWith(".data")) {
                    return true;
                }
            }
            return false;
        }

        Set<String> files() {
            return ranges.keySet();
        }
    }

    final Map<String, List<Rec>> byKey = new LinkedHashMap<>();

    private StoreHistory() {
    }

    static StoreHistory read(Path dir) throws IOException {
        record Seg(Path path, SegmentHeader header, int id) {
        }
        List<Seg> segs = new ArrayList<>();
        for (Path f : SegmentFiles.list(dir)) {
            segs.add(new Seg(f, SegmentHeader.decode(SegmentFiles.headerBytes(f), f), SegmentFiles.id(f)));
        }
        segs.sort(Comparator.comparingLong((Seg s) -> s.header().order()).thenComparing(s -> s.header().merged())
                .thenComparingInt(Seg::id));
        StoreHistory h = new StoreHistory();
        for (Seg s : segs) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(s.path()));
            String file = s.path().getFileName().toString();
            int p = SegmentHeader.SIZE;
            List<int[]> batch = new ArrayList<>();
            while (p < b.limit()) {
                int size = SegmentScanner.validRecordSize(b, p, b.limit());
                if (size < 0) {
                    throw new IOException(file + ": the undamaged store has an invalid record at offset " + p);
                }
                byte type = RecordFormat.type(b, p);
                if (RecordFormat.isBatchMember(type)) {
                    batch.add(new int[] {p, size});
                } else if (type == RecordFormat.BATCH_COMMIT) {
                    int from = batch.get(0)[0];
                    for (int[] m : batch) {
                        h.add(b, file, m[0], from, p + size);
                    }
                    batch.clear();
                } else {
                    h.add(b, file, p, p, p + size);
                }
                p += size;
            }
        }
        return h;
    }

    private void add(ByteBuffer b, String file, int at, int from, int to) {
        int keyLen = RecordFormat.keyLength(b, at);
        int valueLen = RecordFormat.valueLength(b, at);
        byte[] key = new byte[keyLen];
        b.get(at + RecordFormat.HEADER_SIZE, key);
        byte[] value = new byte[valueLen];
        b.get(at + RecordFormat.HEADER_SIZE + keyLen, value);
        boolean tombstone = RecordFormat.isDelete(RecordFormat.type(b, at));
        byKey.computeIfAbsent(new String(key, StandardCharsets.UTF_8), k -> new ArrayList<>())
                .add(new Rec(file, from, to, at, at + RecordFormat.size(keyLen, valueLen), tombstone,
                        tombstone ? null : new String(value, StandardCharsets.UTF_8)));
    }

    /** The key's value in the undamaged store (null: absent). */
    String truth(String key) {
        List<Rec> recs = byKey.get(key);
        return recs == null ? null : recs.get(recs.size() - 1).value();
    }

    /** The key's value once the damaged records are dropped and the rest replayed (null: absent). */
    String survivor(String key, Damage damage) {
        String v = null;
        for (Rec r : byKey.getOrDefault(key, List.of())) {
            if (!damage.hits(r)) {
                v = r.value();
            }
        }
        return v;
    }

    /**
     * What a plain open of the damaged store may show for the key (null: absent): its value; its value once
     * the damaged records are dropped; or the value of an intact record newer than that one. The last case
     * is a batch member whose own bytes are intact, found through a hint although another part of its
     * batch is damaged, after newer records of the key were lost (a cut tail): a value that was committed.
     */
    java.util.Set<String> acceptableAfterOpen(String key, Damage damage) {
        java.util.Set<String> ok = new java.util.HashSet<>();
        ok.add(truth(key));
        ok.add(survivor(key, damage));
        List<Rec> recs = byKey.getOrDefault(key, List.of());
        int survivorAt = -1;
        for (int i = 0; i < recs.size(); i++) {
            if (!damage.hits(recs.get(i))) {
                survivorAt = i;
            }
        }
        for (int i = survivorAt + 1; i < recs.size(); i++) {
            if (!damage.hitsOwnBytes(recs.get(i))) {
                ok.add(recs.get(i).value());
            }
        }
        return ok;
    }

    boolean touched(String key, Damage damage) {
        for (Rec r : byKey.getOrDefault(key, List.of())) {
            if (damage.hits(r)) {
                return true;
            }
        }
        return false;
    }

    /** True if a record of the key is in a segment whose header was damaged (its replay place may change). */
    boolean inDamagedHeaderSegment(String key, Damage damage) {
        for (Rec r : byKey.getOrDefault(key, List.of())) {
            if (damage.headerDamaged(r.file())) {
                return true;
            }
        }
        return false;
    }

    /** Every value the key ever had on disk. */
    List<String> values(String key) {
        List<String> out = new ArrayList<>();
        for (Rec r : byKey.getOrDefault(key, List.of())) {
            out.add(r.value());
        }
        return out;
    }
}
