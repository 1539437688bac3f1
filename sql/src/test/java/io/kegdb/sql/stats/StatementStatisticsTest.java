package io.kegdb.sql.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementStatisticsTest {

    @Test
    void staysWithinItsBoundUnderAHundredThousandDistinctTextsAndKeepsTheMostUsed() {
        StatementStatistics stats = new StatementStatistics(1000);
        StatementRecorder hot = stats.recorder("SELECT V FROM KV WHERE K = ?");
        StatementEntry hotEntry = null;
        for (int i = 0; i < 50; i++) {
            hotEntry = hot.record(1000, 1, 0);
        }
        for (int i = 0; i < 100_000; i++) {
            StatementRecorder r = stats.recorder("SELECT V FROM T" + i + " WHERE K = '" + i + "'");
            r.record(10, 0, 0);
            r.close();
            assertTrue(stats.size() <= 1000, "size " + stats.size() + " after " + i);
        }
        assertSame(hotEntry, stats.entry("SELECT V FROM KV WHERE K = ?"), "the most used text is kept");
        assertEquals(50, hotEntry.calls());
        assertEquals(50, hotEntry.rows());
        // The newest text is never the one dropped to make room for itself.
        StatementRecorder newest = stats.recorder("SELECT 'new'");
        StatementEntry e = newest.record(1, 0, 0);
        assertEquals(1, stats.entry("SELECT ?").calls());
        assertSame(e, stats.entry("SELECT ?"));
        // Every run stays in the per-kind totals, whichever texts were dropped.
        assertEquals(50 + 100_000 + 1, stats.calls(StatementKind.SELECT));
        assertEquals(50, stats.rows(StatementKind.SELECT));
    }

    @Test
    void aStatementRunOftenCountsInItsOwnTallyWhichTheEntryAddsUp() {
        StatementStatistics stats = new StatementStatistics(10);
        StatementRecorder r = stats.recorder("UPDATE T SET V = 'x' WHERE K = 1");
        StatementEntry e = null;
        for (int i = 1; i <= 100; i++) {
            e = r.record(i * 1000L, 1, i == 50 ? 2 : 0);
        }
        assertEquals("UPDATE T SET V = ? WHERE K = ?", e.text());
        assertEquals(100, e.calls());
        assertEquals(100, e.rows());
        assertEquals(2, e.conflicts());
        assertEquals(100_000, e.maxNanos());
        assertEquals(5050 * 1000L, e.totalNanos());
        r.close();
        assertEquals(100, e.calls(), "folded into the entry at close");
        assertEquals(5050 * 1000L, e.totalNanos());
        assertEquals(100_000, e.maxNanos());
    }

    @Test
    void aStatementWhoseEntryWasResetRecordsIntoAFreshOne() {
        StatementStatistics stats = new StatementStatistics(10);
        StatementRecorder r = stats.recorder("DELETE FROM KV");
        StatementEntry first = null;
        for (int i = 0; i < 10; i++) {
            first = r.record(5_000, 3, 0);
        }
        stats.reset();
        assertEquals(0, stats.size());
        StatementEntry now = r.record(5_000, 3, 1);
        assertNotSame(first, now);
        assertEquals(1, stats.size());
        assertEquals(1, now.calls());
        assertEquals(3, now.rows());
        assertEquals(1, now.conflicts());
        assertEquals(StatementKind.DELETE, now.kind());
        assertEquals(11, stats.calls(StatementKind.DELETE), "the meters keep what the reset forgot");
    }

    @Test
    void kindsComeFromTheFirstWord() {
        assertEquals(StatementKind.SELECT, StatementKind.of("(SELECT 1) UNION (SELECT 2)"));
        assertEquals(StatementKind.SELECT, StatementKind.of("with x as (select 1) select * from x"));
        assertEquals(StatementKind.MERGE, StatementKind.of("UPSERT INTO KV VALUES (?, ?)"));
        assertEquals(StatementKind.DDL, StatementKind.of("create table t (k int primary key, v int)"));
        assertEquals(StatementKind.OTHER, StatementKind.of("EXPLAIN PLAN FOR SELECT 1"));
    }
}
