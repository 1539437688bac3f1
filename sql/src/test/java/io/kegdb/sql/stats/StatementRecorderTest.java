package io.kegdb.sql.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A prepared statement's runs: every one counted, the first ones and then one in 16 timed, the rest estimated. */
class StatementRecorderTest {

    @Test
    void everyRunCountsAndTheUntimedOnesTakeTheTimedOnesMean() {
        StatementStatistics statistics = new StatementStatistics(10);
        StatementRecorder recorder = statistics.recorder("SELECT V FROM T WHERE K = 1");
        int timed = 0;
        StatementEntry entry = null;
        for (int run = 1; run <= 40; run++) {
            boolean t = recorder.timesNextRun();
            boolean expected = run <= StatementRecorder.SHARED_RUNS || run == 5 || run == 21 || run == 37;
            assertEquals(expected, t, "run " + run);
            timed += t ? 1 : 0;
            entry = recorder.record(t ? 1000 * run : -1, 1, 0);
        }
        assertEquals(7, timed);
        assertEquals("SELECT V FROM T WHERE K = ?", entry.text());
        assertEquals(40, entry.calls());
        assertEquals(40, entry.rows());
        assertEquals(37_000, entry.maxNanos(), "the longest timed run");
        // The first four exactly (1+2+3+4 µs), the 36 tallied ones as 36 times the mean of runs 5, 21, 37 (21 µs).
        long expectedTotal = 10_000 + 36 * 21_000;
        assertEquals(expectedTotal, entry.totalNanos());
        recorder.close();
        assertEquals(expectedTotal, entry.totalNanos(), "the same once the tally is folded in");
        assertEquals(40, entry.calls());
        assertEquals(40, statistics.calls(StatementKind.SELECT));
    }
}
