package io.kegdb.bench.txn;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The anomaly table: every {@link AnomalyWorkload} on every target, each cell a new database and a timed run
 * through a pool; printed as a Markdown table, workloads down, targets across, each cell the workload's check
 * and its committed transactions per second and retries.
 */
final class AnomalyTable {

    /** The targets of the table: KegDB embedded (default durability), in memory and on a cluster; H2; SQLite. */
    static final List<ContendedTarget> TARGETS = List.of(ContendedTarget.KEGDB_SYNC, ContendedTarget.KEGDB_MEMORY,
            ContendedTarget.KEGDB_CLUSTER, ContendedTarget.H2, ContendedTarget.SQLITE);

    /** One cell. */
    record Cell(ContendedTarget target, AnomalyWorkload workload, WorkloadOutcome outcome) {
    }

    private AnomalyTable() {
    }

    /** Seconds each workload runs, unreported, on KegDB in memory before the table's first cell. */
    private static final double WARM_UP_SECONDS = 1;

    /**
     * Runs every workload on every target in {@code targets}, each on a new database under {@code dir}, after
     * a warm-up so that the first cell does not pay for the JVM's class loading, the SQL planner's first plans
     * and the JIT.
     */
    static List<Cell> run(List<ContendedTarget> targets, int threads, double seconds, Path dir) throws Exception {
        int n = 0;
        for (AnomalyWorkload workload : AnomalyWorkload.values()) {
            PooledRun.run(ContendedTarget.KEGDB_MEMORY, threads, dir.resolve("warm-up-" + n++),
                    pool -> workload.run(pool, ContendedTarget.KEGDB_MEMORY, threads, Math.min(seconds, WARM_UP_SECONDS)));
        }
        List<Cell> cells = new ArrayList<>();
        for (ContendedTarget target : targets) {
            for (AnomalyWorkload workload : AnomalyWorkload.values()) {
                WorkloadOutcome outcome = PooledRun.run(target, threads, dir.resolve("table-" + n++),
                        pool -> workload.run(pool, target, threads, seconds));
                System.err.printf("%-22s %-22s %s; %,.0f committed/s, %,d retries%n", target.label(), workload,
                        outcome.finding(), outcome.committedPerSecond(), outcome.retries());
                cells.add(new Cell(target, workload, outcome));
            }
        }
        return cells;
    }

    static String format(List<Cell> cells, List<ContendedTarget> targets, int threads, double seconds) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%d pool threads (HikariCP, a connection borrowed per transaction), %.1f s per cell,"
                + " a new database per cell; %d counters; conflicts (40001, H2's lock and concurrent-update errors,"
                + " SQLITE_BUSY) retried.%n%n", threads, seconds, AnomalyWorkload.COUNTERS));
        sb.append("| workload |");
        targets.forEach(t -> sb.append(' ').append(t.label()).append(" |"));
        sb.append("\n|---|");
        targets.forEach(t -> sb.append("---|"));
        sb.append('\n');
        for (AnomalyWorkload workload : AnomalyWorkload.values()) {
            sb.append("| ").append(workload.label).append(" |");
            for (ContendedTarget target : targets) {
                WorkloadOutcome o = cells.stream().filter(c -> c.target() == target && c.workload() == workload)
                        .findFirst().orElseThrow(() -> new IllegalArgumentException("no cell " + target + " " + workload))
                        .outcome();
                sb.append(String.format(" %s<br>%,.0f committed/s, %,d retries |", o.finding(),
                        o.committedPerSecond(), o.retries()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
