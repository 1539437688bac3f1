package io.kegdb.engine;

import java.util.List;
import java.util.PriorityQueue;

/**
 * Restart's fast path: hint files are sorted by key, so a k-way merge of the hints of a run of segments
 * yields every key once, in order, with its newest record, ready for a keydir bulk build in O(n). No
 * data is read and no keydir search is made.
 */
final class HintMerge {

    /** Receives the winning entries in ascending key order. */
    interface Sink {
        void add(byte[] key, long location);
    }

    private record Head(HintFile.Cursor cursor, Segment segment, int rank) {
    }

    private HintMerge() {
    }

    /**
     * Merges {@code cursors} (one per segment of {@code segments}, both in replay order: a later one wins
     * for an equal key), feeds live entries to {@code sink} and counts their bytes as the segments' live bytes.
     */
    static void merge(List<Segment> segments, List<HintFile.Cursor> cursors, Sink sink) {
        PriorityQueue<Head> heads = new PriorityQueue<>(Math.max(1, cursors.size()), (a, b) -> {
            int c = HintFile.Cursor.compareKeys(a.cursor(), b.cursor());
            return c != 0 ? c : Integer.compare(b.rank(), a.rank());
        });
        for (int i = 0; i < cursors.size(); i++) {
            if (cursors.get(i).next()) {
                heads.add(new Head(cursors.get(i), segments.get(i), i));
            }
        }
        while (!heads.isEmpty()) {
            // Equal keys come out newest first (highest rank); the rest are superseded.
            Head winner = heads.poll();
            HintFile.Cursor w = winner.cursor();
            if (!w.tombstone()) {
                sink.add(w.key(), Location.of(winner.segment().id(), w.offset()));
                winner.segment().addLive(w.size());
            }
            while (!heads.isEmpty() && HintFile.Cursor.compareKeys(heads.peek().cursor(), w) == 0) {
                Head older = heads.poll();
                if (older.cursor().next()) {
                    heads.add(older);
                }
            }
            if (w.next()) {
                heads.add(winner);
            }
        }
    }
}
