package io.kegdb.bench;

import java.io.PrintStream;
import java.util.Locale;

/** Progress of a long phase on stderr, at most one line every two seconds. */
final class Progress {

    private static final long MASK = (1 << 16) - 1;
    private static final long INTERVAL_NANOS = 2_000_000_000L;

    private final PrintStream out;
    private final String label;
    private final long total;
    private final long start = System.nanoTime();
    private long lastPrint = start;

    private Progress(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = total;
    }

    /** Reports on {@code out}, or nowhere when {@code out} is null. */
    static Progress of(PrintStream out, String label, long total) {
        return new Progress(out, label, total);
    }

    /** Called with the operation count; cheap except every 65536th call. */
    void at(long done) {
        if ((done & MASK) != 0 || out == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastPrint < INTERVAL_NANOS) {
            return;
        }
        lastPrint = now;
        double seconds = (now - start) / 1e9;
        out.printf(Locale.ROOT, "  %s: %,d / %,d (%.0f%%), %,.0f ops/s%n",
                label, done, total, 100.0 * done / total, done / seconds);
    }

    /** A one-off message (phase start or end). */
    void note(String message) {
        if (out != null) {
            out.println("  " + label + ": " + message);
        }
    }
}
