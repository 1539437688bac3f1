package io.kegdb.sql.stats;

import io.kegdb.sql.direct.StatementText;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Statistics per normalized statement text, for {@code SYS.STATEMENTS}: at most {@link #capacity()} texts in
 * memory (a few more for a moment while sessions add texts at the same time). When a new text would exceed
 * that, the least used tenth (fewest calls) is dropped first, so that
 * a stream of distinct texts costs a sort now and then rather than one per statement. {@link #reset} forgets
 * every text. What dropped texts had counted stays in the per-kind totals behind the statement meters.
 */
public final class StatementStatistics {

    /** Texts kept by default. */
    public static final int DEFAULT_CAPACITY = 1000;

    private final int capacity;
    private final ConcurrentHashMap<String, StatementEntry> entries = new ConcurrentHashMap<>();
    /** What dropped entries had counted, per kind, so that the statement meters never go back. */
    private final LongAdder[] retiredCalls = adders();
    private final LongAdder[] retiredRows = adders();
    private final LongAdder retiredNanos = new LongAdder();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[StatementKind.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

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

    /** The recorder of a statement of text {@code sql} (normalized at its first run). */
    public StatementRecorder recorder(String sql) {
        return new StatementRecorder(this, sql);
    }

    /** The entry of {@code sql}, or of the text of {@code dropped}, an entry evicted since. */
    StatementEntry entryOf(String sql, StatementEntry dropped) {
        return entry(dropped != null ? dropped.text() : StatementText.normalize(sql));
    }

    /** Statements of {@code kind} run since the database opened (those of dropped texts included). */
    public long calls(StatementKind kind) {
        long n = retiredCalls[kind.ordinal()].sum();
        for (StatementEntry e : entries.values()) {
            if (e.kind() == kind) {
                n += e.calls();
            }
        }
        return n;
    }

    /** Rows returned (SELECT) or changed (other kinds) by statements of {@code kind} since the database opened. */
    public long rows(StatementKind kind) {
        long n = retiredRows[kind.ordinal()].sum();
        for (StatementEntry e : entries.values()) {
            if (e.kind() == kind) {
                n += e.rows();
            }
        }
        return n;
    }

    /** Time all statements took since the database opened, in nanoseconds. */
    public long nanos() {
        long n = retiredNanos.sum();
        for (StatementEntry e : entries.values()) {
            n += e.totalNanos();
        }
        return n;
    }

    private void retire(StatementEntry e) {
        e.evict();
        retiredCalls[e.kind().ordinal()].add(e.calls());
        retiredRows[e.kind().ordinal()].add(e.rows());
        retiredNanos.add(e.totalNanos());
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
                retire(victim);
            }
        }
    }

    /** Forgets every text. */
    public void reset() {
        for (StatementEntry e : entries.values()) {
            if (entries.remove(e.text(), e)) {
                retire(e);
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
