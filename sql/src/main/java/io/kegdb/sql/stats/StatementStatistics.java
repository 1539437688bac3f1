package io.kegdb.sql.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Statistics per normalized statement text, for {@code SYS.STATEMENTS}: at most {@link #capacity()} texts in
 * memory (a few more for a moment while sessions add texts at the same time). When a new text would exceed
 * that, the least used tenth (fewest calls) is dropped first, so that
 * a stream of distinct texts costs a sort now and then rather than one per statement. {@link #reset} forgets
 * everything.
 */
public final class StatementStatistics {

    /** Texts kept by default. */
    public static final int DEFAULT_CAPACITY = 1000;

    private final int capacity;
    private final ConcurrentHashMap<String, StatementEntry> entries = new ConcurrentHashMap<>();

    public StatementStatistics(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /** The entry of {@code text}, made if new (dropping the least used ones if the table is full). */
    public StatementEntry entry(String text) {
        StatementEntry e = entries.get(text);
        if (e != null) {
            return e;
        }
        if (entries.size() >= capacity) {
            // Before the new text goes in, so that it is not itself the least used one dropped.
            evictLeastUsed();
        }
        return entries.computeIfAbsent(text, StatementEntry::new);
    }

    /**
     * Records a run of {@code entry} (as returned by {@link #entry}); returns the entry it was recorded in,
     * which is a fresh one for the same text if {@code entry} had been evicted.
     */
    public StatementEntry record(StatementEntry entry, long elapsedNanos, long rows, int conflicts) {
        StatementEntry e = entry.evicted() ? entry(entry.text()) : entry;
        e.record(elapsedNanos, rows, conflicts);
        return e;
    }

    private synchronized void evictLeastUsed() {
        int excess = entries.size() - capacity + 1;
        if (excess <= 0) {
            return;
        }
        List<StatementEntry> all = new ArrayList<>(entries.values());
        all.sort(Comparator.comparingLong(StatementEntry::calls));
        int drop = Math.min(all.size(), Math.max(excess, capacity / 10));
        for (int i = 0; i < drop; i++) {
            StatementEntry victim = all.get(i);
            if (entries.remove(victim.text(), victim)) {
                victim.evict();
            }
        }
    }

    /** Forgets every text. */
    public void reset() {
        for (StatementEntry e : entries.values()) {
            if (entries.remove(e.text(), e)) {
                e.evict();
            }
        }
    }

    /** Texts held now. */
    public int size() {
        return entries.size();
    }

    /** The entries now, most time first. */
    public List<StatementEntry> entries() {
        List<StatementEntry> all = new ArrayList<>(entries.values());
        all.sort(Comparator.comparingLong(StatementEntry::totalNanos).reversed());
        return all;
    }
}
