package io.kegdb.bench.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The anomaly table for a fraction of a second per cell on KegDB embedded and in memory, H2 and SQLite: every
 * workload commits something, KegDB loses no acknowledged increment, and on every target the bank's total stays
 * 1000 and no audit sees another total.
 */
class AnomalyTableSmokeTest {

    private static final List<ContendedTarget> TARGETS = List.of(ContendedTarget.KEGDB_SYNC,
            ContendedTarget.KEGDB_MEMORY, ContendedTarget.H2, ContendedTarget.SQLITE);

    @TempDir
    Path tmp;

    @Test
    void noTargetLosesMoneyOrShowsAWrongTotalAndKegDbLosesNoIncrement() throws Exception {
        List<AnomalyTable.Cell> cells = AnomalyTable.run(TARGETS, 4, 0.4, tmp);
        assertEquals(TARGETS.size() * AnomalyWorkload.values().length, cells.size());
        for (AnomalyTable.Cell cell : cells) {
            WorkloadOutcome outcome = cell.outcome();
            assertTrue(outcome.committed() > 0, "nothing committed in " + cell);
            if (outcome instanceof IncrementResult increments && cell.target().name().startsWith("KEGDB")) {
                assertEquals(0, increments.lost(), "lost increments in " + cell);
            }
            if (outcome instanceof BankResult bank) {
                assertEquals(BankTransfers.TOTAL, bank.finalTotal(), "total after " + cell);
                assertEquals(0, bank.badAudits(), "audits that saw a wrong total in " + cell);
                assertEquals(cell.workload() == AnomalyWorkload.AUDITS, bank.audits() > 0, "audits ran in " + cell);
            }
        }
        String table = AnomalyTable.format(cells, TARGETS, 4, 0.4);
        assertTrue(table.contains("| workload | KegDB sync | KegDB in-memory | H2 | SQLite |"), table);
        assertEquals(2 + AnomalyWorkload.values().length, table.strip().lines().filter(l -> l.startsWith("|")).count(), table);
    }
}
