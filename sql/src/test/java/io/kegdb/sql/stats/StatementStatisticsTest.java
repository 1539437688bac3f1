package io.kegdb.sql.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementStatisticsTest {

    @Test
    void staysWithinItsBoundUnderAHundredThousandDistinctTextsAndKeepsTheMostUsed() {
        StatementStatistics stats = new StatementStatistics(1000);
        StatementEntry hot = stats.entry("SELECT V FROM KV WHERE K = ?");
        for (int i = 0; i < 50; i++) {
            hot = stats.record(hot, 1000, 1, 0);
        }
        for (int i = 0; i < 100_000; i++) {
            StatementEntry e = stats.entry("SELECT V FROM T" + i);
            stats.record(e, 10, 0, 0);
            assertTrue(stats.size() <= 1000, "size " + stats.size() + " after " + i);
        }
        assertSame(hot, stats.entry("SELECT V FROM KV WHERE K = ?"), "the most used text is kept");
        assertEquals(50, hot.calls());
        // The newest text is never the one dropped to make room for itself.
        StatementEntry newest = stats.entry("SELECT 'new'");
        stats.record(newest, 1, 0, 0);
        assertEquals(1, stats.entry("SELECT 'new'").calls());
    }

    @Test
    void aStatementKeepingAnEvictedEntryRecordsIntoAFreshOne() {
        StatementStatistics stats = new StatementStatistics(10);
        StatementEntry e = stats.entry("DELETE FROM KV");
        stats.reset();
        assertEquals(0, stats.size());
        StatementEntry now = stats.record(e, 5_000, 3, 1);
        assertEquals(1, stats.size());
        assertEquals(1, now.calls());
        assertEquals(3, now.rows());
        assertEquals(1, now.conflicts());
        assertEquals(StatementKind.DELETE, now.kind());
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
