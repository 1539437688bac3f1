package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.CheckReport;
import io.kegdb.engine.MaintenanceListener;
import io.kegdb.engine.MaintenanceListener.MergeStep;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

/**
 * kill -9 at each durable step of a merge: after an output is written (before its hint), after its hint,
 * after it is renamed into place (before the keydir moves), after the keydir moved (before any input is
 * deleted), after the first input is deleted, and after the last. Each reopen has exactly the pre-merge data
 * (every key and value, no deleted key back), passes verify(), and still has it after a merge and another
 * restart.
 */
class MergeCrashPointsTest {

    private static final long SEED = 23;

    @TempDir
    Path tmp;

    @Test
    void reopenAfterAKillAtEachMergeStepHasExactlyThePreMergeData() throws Exception {
        TreeMap<String, String> model = MergeStepBlockerChild.workload(SEED, null);
        List<MergeStep> sequence = new ArrayList<>();
        Map<MergeStep, Integer> steps = calibrate(sequence);
        // Inputs with nothing live are deleted before anything is copied; the first input deleted after the
        // outputs are in use is the one whose order matters (its tombstones must outlive older puts).
        int deadDeleted = sequence.indexOf(MergeStep.OUTPUT_WRITTEN);
        int firstCopiedInputDeleted = deadDeleted + 1;
        assertTrue(firstCopiedInputDeleted < steps.get(MergeStep.INPUT_DELETED), sequence.toString());
        assertTrue(steps.get(MergeStep.OUTPUT_WRITTEN) >= 2, "the data should need more than one merge output: " + steps);
        assertTrue(steps.get(MergeStep.INPUT_DELETED) >= 3, "the merge should have several inputs: " + steps);
        record Point(MergeStep step, int occurrence) {
        }
        java.util.Set<Point> points = new java.util.LinkedHashSet<>(List.of(
                new Point(MergeStep.OUTPUT_WRITTEN, 1),
                new Point(MergeStep.HINT_WRITTEN, 1),
                new Point(MergeStep.OUTPUT_INSTALLED, 1),
                new Point(MergeStep.KEYDIR_MOVED, 1),
                new Point(MergeStep.OUTPUT_INSTALLED, steps.get(MergeStep.OUTPUT_INSTALLED)),
                new Point(MergeStep.KEYDIR_MOVED, steps.get(MergeStep.KEYDIR_MOVED)),
                new Point(MergeStep.INPUT_DELETED, 1),
                new Point(MergeStep.INPUT_DELETED, firstCopiedInputDeleted),
                new Point(MergeStep.INPUT_DELETED, firstCopiedInputDeleted + 1),
                new Point(MergeStep.INPUT_DELETED, steps.get(MergeStep.INPUT_DELETED))));
        for (Point p : points) {
            Path dir = tmp.resolve(p.step() + "-" + p.occurrence());
            try (ChildProcess child = ChildProcess.start(MergeStepBlockerChild.class, tmp.resolve(dir.getFileName() + ".log"),
                    dir.toString(), String.valueOf(SEED), p.step().name(), String.valueOf(p.occurrence()))) {
                String ready = child.nextLine(60_000);
                assertEquals("READY " + MergeStepBlockerChild.digest(model), ready, "the child's data before the merge");
                String at = child.nextLine(60_000);
                assertNotNull(at, "child died before " + p);
                assertTrue(at.startsWith("AT " + p.step() + " " + p.occurrence()), at);
                child.kill();
            }
            assertReopensWithExactly(dir, model, p.toString());
        }
        System.out.println("merge crash points: " + points.size() + " kill -9 at " + points + " of a merge with steps "
                + steps + "; every reopen had exactly the pre-merge " + model.size() + " keys");
    }

    /** Runs the same workload and merge here, counting how often each step happens. */
    private Map<MergeStep, Integer> calibrate(List<MergeStep> sequence) throws Exception {
        Map<MergeStep, Integer> counts = new EnumMap<>(MergeStep.class);
        try (Bitcask db = Bitcask.open(tmp.resolve("calibrate"), MergeStepBlockerChild.options())) {
            MergeStepBlockerChild.workload(SEED, db);
            db.merge(new MaintenanceListener() {
                @Override
                public void mergeStep(MergeStep step, String file) {
                    counts.merge(step, 1, Integer::sum);
                    sequence.add(step);
                }
            });
        }
        for (MergeStep s : MergeStep.values()) {
            assertTrue(counts.getOrDefault(s, 0) > 0, "merge never reported " + s + ": " + counts);
        }
        return counts;
    }

    private static void assertReopensWithExactly(Path dir, TreeMap<String, String> model, String point) throws Exception {
        // Offline, the only findings a kill during merge may leave are its unfinished files.
        CheckReport offline = Bitcask.check(dir);
        for (String problem : offline.problems()) {
            assertTrue(problem.contains(".tmp:") || problem.contains("hint file without its data segment"),
                    point + ": " + offline);
        }
        try (Bitcask db = Bitcask.open(dir, MergeStepBlockerChild.options())) {
            assertEquals(model, StoreContents.of(db), point + ": data after the kill");
            assertEquals(model.size(), db.stats().keys(), point);
            CheckReport r = db.verify();
            assertTrue(r.ok(), point + ": " + r);
            db.merge();
            assertTrue(db.verify().ok(), point + ": after a merge");
        }
        try (Bitcask db = Bitcask.open(dir, MergeStepBlockerChild.options())) {
            assertEquals(model, StoreContents.of(db), point + ": after merge and restart");
            for (String key : model.keySet()) {
                assertEquals(model.get(key), new String(db.get(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                        java.nio.charset.StandardCharsets.UTF_8));
            }
            CheckReport r = db.verify();
            assertTrue(r.ok(), point + ": after merge and restart: " + r);
        }
        CheckReport closed = Bitcask.check(dir);
        assertTrue(closed.ok(), point + ": check after a clean close: " + closed);
    }
}
