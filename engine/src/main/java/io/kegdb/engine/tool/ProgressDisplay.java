package io.kegdb.engine.tool;

import io.kegdb.engine.MaintenanceListener;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Shows a maintenance operation's progress on stderr: a bar redrawn in place on a terminal, or a plain line
 * at every tenth of the work otherwise (logs, pipes, CI).
 */
final class ProgressDisplay implements MaintenanceListener {

    /** How the progress is shown. */
    enum Mode { TERMINAL, PLAIN, NONE }

    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream err;
    private final Mode mode;
    private final String label;
    private long lastDraw;
    private int lastTenth = -1;
    private boolean drawn;

    ProgressDisplay(PrintStream err, Mode mode, String label) {
        this.err = err;
        this.mode = mode;
        this.label = label;
    }

    @Override
    public void progress(long bytesDone, long bytesTotal, int segmentsDone, int segmentsTotal) {
        boolean finished = bytesDone >= bytesTotal && segmentsDone >= segmentsTotal;
        double fraction = bytesTotal > 0 ? Math.min(1.0, (double) bytesDone / bytesTotal)
                : segmentsTotal > 0 ? (double) segmentsDone / segmentsTotal : 1.0;
        String figures = String.format(Locale.ROOT, "%3d%%  %s / %s  %d/%d segments", (int) (fraction * 100),
                size(bytesDone), size(bytesTotal), segmentsDone, segmentsTotal);
        switch (mode) {
            case TERMINAL -> {
                long now = System.nanoTime();
                if (!finished && drawn && now - lastDraw < REDRAW_NANOS) {
                    return;
                }
                lastDraw = now;
                int filled = (int) Math.round(fraction * BAR);
                err.print("\r" + label + " [" + "#".repeat(filled) + " ".repeat(BAR - filled) + "] " + figures + "\u001b[K");
                drawn = true;
                err.flush();
            }
            case PLAIN -> {
                int tenth = (int) (fraction * 10);
                if (tenth == lastTenth && !(finished && tenth < 10)) {
                    return;
                }
                lastTenth = finished ? 10 : tenth;
                err.println(label + ": " + figures.trim());
            }
            case NONE -> {
            }
        }
    }

    /** Ends the bar's line, so that what follows starts on a fresh one. */
    void finish() {
        if (mode == Mode.TERMINAL && drawn) {
            err.println();
            drawn = false;
        }
    }

    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double v = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
