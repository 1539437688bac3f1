package io.kegdb.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of a consistency check ({@link Bitcask#verify()}, {@link Bitcask#check}) or a repair
 * ({@link Bitcask#repair}).
 *
 * <p>{@link #problems()} lists what is wrong, one precise line each, naming the file and byte offset; for a
 * repair, what is still wrong after it (normally nothing). {@link #changes()} lists what a repair changed on
 * disk, one line per change (empty for checks). {@link #notes()} holds facts worth knowing that are not
 * problems, such as the state of the directory lock. The counts say how much was looked at.
 */
public final class CheckReport {

    /** At most this many problems are listed; the rest are counted. */
    static final int MAX_LISTED = 1000;

    private final List<String> problems;
    private final List<String> changes;
    private final List<String> notes;
    private final long problemCount;
    private final long keysChecked;
    private final long recordsScanned;
    private final int segments;
    private final long bytesScanned;

    private CheckReport(Builder b) {
        this.problems = List.copyOf(b.problems);
        this.changes = List.copyOf(b.changes);
        this.notes = List.copyOf(b.notes);
        this.problemCount = b.problemCount;
        this.keysChecked = b.keysChecked;
        this.recordsScanned = b.recordsScanned;
        this.segments = b.segments;
        this.bytesScanned = b.bytesScanned;
    }

    /** True when no problem was found (for a repair: none is left). */
    public boolean ok() {
        return problemCount == 0;
    }

    /** The problems, each naming a file and, where it applies, a byte offset; at most 1000 are listed. */
    public List<String> problems() {
        return problems;
    }

    /** How many problems were found, including any beyond the listed ones. */
    public long problemCount() {
        return problemCount;
    }

    /** What a repair changed on disk, in the order it did it; empty for a check. */
    public List<String> changes() {
        return changes;
    }

    /** Facts that are not problems (lock state, unwritten space a crash left at the end of the newest segment). */
    public List<String> notes() {
        return notes;
    }

    /** Live keys whose record was checked. */
    public long keysChecked() {
        return keysChecked;
    }

    /** Committed records read from the data segments. */
    public long recordsScanned() {
        return recordsScanned;
    }

    /** Data segments looked at. */
    public int segments() {
        return segments;
    }

    /** Bytes of data segments read. */
    public long bytesScanned() {
        return bytesScanned;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(ok() ? "OK" : problemCount + " problem(s)").append(": ").append(segments).append(" segments, ")
                .append(recordsScanned).append(" records, ").append(keysChecked).append(" keys, ")
                .append(bytesScanned).append(" bytes");
        for (String p : problems) {
            sb.append("\n  problem: ").append(p);
        }
        if (problems.size() < problemCount) {
            sb.append("\n  ... and ").append(problemCount - problems.size()).append(" more problem(s)");
        }
        for (String c : changes) {
            sb.append("\n  changed: ").append(c);
        }
        for (String n : notes) {
            sb.append("\n  note: ").append(n);
        }
        return sb.toString();
    }

    /** Collects findings while a check or repair runs. */
    static final class Builder {
        private final List<String> problems = new ArrayList<>();
        private final List<String> changes = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private long problemCount;
        long keysChecked;
        long recordsScanned;
        int segments;
        long bytesScanned;

        void problem(String p) {
            problemCount++;
            if (problems.size() < MAX_LISTED) {
                problems.add(p);
            }
        }

        void change(String c) {
            changes.add(c);
        }

        void note(String n) {
            notes.add(n);
        }

        List<String> problems() {
            return problems;
        }

        boolean hasProblems() {
            return problemCount > 0;
        }

        CheckReport build() {
            return new CheckReport(this);
        }
    }
}
