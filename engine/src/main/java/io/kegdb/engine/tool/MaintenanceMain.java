package io.kegdb.engine.tool;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.CheckReport;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The maintenance commands of {@code ./kegdb}: {@code check DIR}, {@code repair DIR}, {@code merge DIR},
 * {@code backup DIR TARGET}. Results go to stdout, progress to stderr. Exit status: 0 when all is well, 1
 * when problems were found or are left (or the operation failed), 2 for a usage error.
 *
 * <p>The progress display is chosen by the system property {@code kegdb.progress}: {@code terminal} (a bar
 * redrawn in place), {@code plain} (a line per tenth of the work) or {@code none}; the launcher picks
 * {@code terminal} when stderr is a terminal.
 */
public final class MaintenanceMain {

    static final int OK = 0;
    static final int PROBLEMS = 1;
    static final int USAGE = 2;

    private static final String USAGE_TEXT = String.join("\n",
            "Usage: kegdb check DIR | repair DIR | merge DIR | backup DIR TARGET",
            "  check DIR          checks a closed store without changing it: every record's checksum, hint files,",
            "                     torn tails, leftovers of interrupted merges, the lock",
            "  repair DIR         fixes what check finds, keeping every intact record, and lists each change",
            "  merge DIR          compacts the store now (opens it, so it must not be open elsewhere)",
            "  backup DIR TARGET  writes a consistent copy of the closed store to TARGET (a new or empty directory)",
            "Each refuses a directory that is not a store (no LOCK file, no data segments).",
            "Exit status: 0 ok, 1 problems found or left (or the operation failed), 2 usage error.");

    private final PrintStream out;
    private final PrintStream err;
    private final ProgressDisplay.Mode mode;

    MaintenanceMain(PrintStream out, PrintStream err, ProgressDisplay.Mode mode) {
        this.out = out;
        this.err = err;
        this.mode = mode;
    }

    public static void main(String[] args) {
        // The engine's informational log lines would tear the progress bar; keep warnings and errors.
        Logger.getLogger("").setLevel(Level.WARNING);
        String p = System.getProperty("kegdb.progress", "plain");
        ProgressDisplay.Mode mode = switch (p) {
            case "terminal" -> ProgressDisplay.Mode.TERMINAL;
            case "none" -> ProgressDisplay.Mode.NONE;
            default -> ProgressDisplay.Mode.PLAIN;
        };
        System.exit(new MaintenanceMain(System.out, System.err, mode).run(args));
    }

    /** Runs one command; returns the exit status. */
    int run(String... args) {
        if (args.length == 0) {
            return usage("no command given");
        }
        String command = args[0];
        if (command.equals("-h") || command.equals("--help") || command.equals("help")) {
            out.println(USAGE_TEXT);
            return OK;
        }
        int operands = command.equals("backup") ? 2 : 1;
        if (!command.matches("check|repair|merge|backup")) {
            return usage("unknown command '" + command + "'");
        }
        if (List.of(args).subList(1, args.length).stream().anyMatch(a -> a.equals("-h") || a.equals("--help"))) {
            out.println(USAGE_TEXT);
            return OK;
        }
        if (args.length != operands + 1) {
            return usage(command + " takes " + (operands == 2 ? "DIR and TARGET" : "DIR") + ", got " + (args.length - 1)
                    + " argument(s)");
        }
        Path dir = Path.of(args[1]);
        ProgressDisplay progress = new ProgressDisplay(err, mode, command + " " + dir.getFileName());
        try {
            String refusal = refusal(command, dir, args);
            if (refusal != null) {
                err.println("kegdb " + command + ": " + refusal);
                return PROBLEMS;
            }
            return switch (command) {
                case "check" -> check(dir, progress);
                case "repair" -> repair(dir, progress);
                case "merge" -> merge(dir, progress);
                default -> backup(dir, Path.of(args[2]), progress);
            };
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            progress.finish();
            err.println("kegdb " + command + ": " + e.getMessage());
            return PROBLEMS;
        }
    }

    /** Why {@code command} (with its {@code args}) must not run on {@code dir}, or null. */
    private static String refusal(String command, Path dir, String[] args) throws IOException {
        if (!Files.isDirectory(dir)) {
            return dir + ": no such store directory";
        }
        if (!Bitcask.isStore(dir)) {
            return dir + " is not a KegDB store (it has no LOCK file and no data segments); nothing done";
        }
        if (Bitcask.isOpenForWriting(dir)) {
            String why = dir + " is open in another process (its LOCK is held)";
            return switch (command) {
                case "check", "repair" -> why + "; " + command + " works on a closed store: stop that process first";
                case "backup" -> why + "; back a live store up from a connection to it: BACKUP TO '"
                        + Path.of(args[2]).toAbsolutePath() + "' (SQL; writers go on), or Bitcask.backup(target) in that process";
                default -> why + "; " + command + " needs the store closed, or runs in the owning process"
                        + " (Bitcask.merge(); the store merges on its own by default)";
            };
        }
        return null;
    }

    private int usage(String why) {
        err.println("kegdb: " + why);
        err.println(USAGE_TEXT);
        return USAGE;
    }

    private int check(Path dir, ProgressDisplay progress) throws IOException {
        CheckReport r = Bitcask.check(dir, progress);
        progress.finish();
        print(r);
        out.println(r.ok() ? "check: OK" : "check: " + r.problemCount() + " problem(s) found; ./kegdb repair fixes them");
        return r.ok() ? OK : PROBLEMS;
    }

    private int repair(Path dir, ProgressDisplay progress) throws IOException {
        CheckReport r = Bitcask.repair(dir, progress);
        progress.finish();
        print(r);
        out.println(r.changes().isEmpty() ? "repair: nothing to change" : "repair: " + r.changes().size() + " change(s)");
        out.println(r.ok() ? "repair: OK, the store is consistent" : "repair: " + r.problemCount() + " problem(s) left");
        return r.ok() ? OK : PROBLEMS;
    }

    private void print(CheckReport r) {
        for (String n : r.notes()) {
            out.println("note: " + n);
        }
        for (String c : r.changes()) {
            out.println("changed: " + c);
        }
        for (String p : r.problems()) {
            out.println("problem: " + p);
        }
        if (r.problems().size() < r.problemCount()) {
            out.println("problem: ... and " + (r.problemCount() - r.problems().size()) + " more");
        }
        out.println(r.segments() + " segments, " + r.recordsScanned() + " records, " + r.keysChecked() + " keys, "
                + ProgressDisplay.size(r.bytesScanned()) + " read");
    }

    private static Bitcask openForMaintenance(Path dir) throws IOException {
        return Bitcask.open(dir, BitcaskOptions.builder().mergeInterval(Duration.ZERO).build());
    }

    private int merge(Path dir, ProgressDisplay progress) throws IOException {
        try (Bitcask db = openForMaintenance(dir)) {
            BitcaskStats before = db.stats();
            db.merge(progress);
            progress.finish();
            BitcaskStats after = db.stats();
            long bytesBefore = before.liveBytes() + before.deadBytes();
            long bytesAfter = after.liveBytes() + after.deadBytes();
            out.println("merge: " + before.segments() + " segments (" + ProgressDisplay.size(bytesBefore) + ") -> "
                    + after.segments() + " segments (" + ProgressDisplay.size(bytesAfter) + "), "
                    + ProgressDisplay.size(Math.max(0, bytesBefore - bytesAfter)) + " reclaimed, " + after.keys() + " keys"
                    + (bytesAfter < bytesBefore ? "" : nothingReclaimed(before)));
        }
        return OK;
    }

    /** Why a merge freed nothing: merge rewrites closed segments only, never the one being written. */
    private static String nothingReclaimed(BitcaskStats before) {
        if (before.segments() <= 1) {
            return "; nothing to reclaim: the store has only its active segment, which merge leaves alone"
                    + " (closed segments appear once it outgrows the segment size)";
        }
        if (before.deadBytes() == 0) {
            return "; nothing to reclaim: no record was overwritten or deleted";
        }
        return "; nothing to reclaim in the closed segments: the overwritten or deleted records are in the active"
                + " segment, which merge leaves alone";
    }

    private int backup(Path dir, Path target, ProgressDisplay progress) throws IOException {
        try (Bitcask db = openForMaintenance(dir)) {
            BitcaskStats stats = db.stats();
            db.backup(target, progress);
            progress.finish();
            out.println("backup: " + stats.keys() + " keys in " + stats.segments() + " segments copied to " + target);
        }
        return OK;
    }
}
