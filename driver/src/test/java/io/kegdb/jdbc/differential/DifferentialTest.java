package io.kegdb.jdbc.differential;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * KegDB against H2 as an oracle: rounds of random key/value tables ({@link RandomTable}) loaded into both, and
 * random SELECTs ({@link SelectGenerator}) whose answers must be the same. A mismatch is shrunk
 * ({@link CaseMinimizer}) and reported with the seed, the tables and the statement.
 *
 * <p>A normal build runs 2,000 statements (about 45 s on two busy cores); {@code -Pstress} (kegdb.stress=true)
 * 60,000 (at most 20 minutes). The seed is new every run and printed; {@code -Dkegdb.differential.seed=N} replays one.
 */
class DifferentialTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    private static final int STATEMENTS = STRESS ? 60_000 : 2_000;
    /** A bound on a stuck run, not a goal: a slow machine runs the same statements, only later. */
    private static final long BUDGET_NANOS = TimeUnit.MINUTES.toNanos(STRESS ? 20 : 10);
    private static final int STATEMENTS_PER_ROUND = 150;
    /** Mismatches shrunk and reported in full; further ones are only counted. */
    private static final int REPORTED = 5;

    @Test
    void kegdbAnswersRandomSelectsLikeH2() throws SQLException {
        long seed = Long.getLong("kegdb.differential.seed", System.nanoTime());
        System.out.println("differential test seed " + seed + " (replay: -Dkegdb.differential.seed=" + seed + ")");
        Random random = new Random(seed);
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int run = 0;
        int rejectedByBoth = 0;
        int mismatches = 0;
        List<String> reports = new ArrayList<>();
        for (int round = 0; run < STATEMENTS && System.nanoTime() < deadline; round++) {
            List<RandomTable> tables = new ArrayList<>();
            int count = 2 + random.nextInt(3);
            for (int t = 0; t < count; t++) {
                tables.add(RandomTable.random("T" + t, random));
            }
            SelectGenerator generator = new SelectGenerator(random, tables);
            try (DatabasePair pair = new DatabasePair(tables)) {
                for (int i = 0; i < STATEMENTS_PER_ROUND && run < STATEMENTS && System.nanoTime() < deadline; i++) {
                    SelectGenerator.Query q = generator.next();
                    DatabasePair.Outcome kegdb = pair.kegdb(q);
                    DatabasePair.Outcome h2 = pair.h2(q);
                    run++;
                    if (kegdb.error() != null && h2.error() != null) {
                        rejectedByBoth++;
                    } else if (!kegdb.agrees(h2)) {
                        mismatches++;
                        if (reports.size() < REPORTED) {
                            reports.add(report(seed, round, q, tables, kegdb, h2));
                        }
                    }
                }
            }
        }
        System.out.printf("differential test: %d statements, %d mismatches, %d rejected by both%n", run, mismatches,
                rejectedByBoth);
        if (mismatches > 0) {
            fail(mismatches + " of " + run + " statements answered differently (seed " + seed + "):\n\n"
                    + String.join("\n\n", reports));
        }
        // The generator writes statements both accept; a few rejected by both would be its own mistakes.
        assertTrue(rejectedByBoth * 100 <= run, rejectedByBoth + " of " + run + " statements rejected by both (seed "
                + seed + ")");
        assertTrue(run >= Math.min(STATEMENTS, 500), "only " + run + " statements in the time budget");
    }

    private static String report(long seed, int round, SelectGenerator.Query q, List<RandomTable> tables,
                                 DatabasePair.Outcome kegdb, DatabasePair.Outcome h2) throws SQLException {
        List<RandomTable> small = CaseMinimizer.minimize(q, tables);
        StringBuilder sb = new StringBuilder("seed " + seed + ", round " + round + "\n");
        for (RandomTable t : small) {
            sb.append(t).append('\n');
        }
        sb.append(q.sql()).append('\n');
        try (DatabasePair pair = new DatabasePair(small)) {
            sb.append("  KegDB: ").append(pair.kegdb(q)).append('\n');
            sb.append("  H2:    ").append(pair.h2(q));
        }
        sb.append("\n  (on the full tables: KegDB ").append(kegdb).append("; H2 ").append(h2).append(')');
        return sb.toString();
    }
}
