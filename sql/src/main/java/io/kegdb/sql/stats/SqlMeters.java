package io.kegdb.sql.stats;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The SQL layer's counters of one database, and its meters ({@code kegdb.sql.*}). */
public final class SqlMeters {

    private final LongAdder planCacheHits = new LongAdder();
    private final LongAdder planCacheMisses = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder slowStatements = new LongAdder();
    private final PlanningTimes planning = new PlanningTimes();
    /** Where the statement counts come from: each run is counted once, there. */
    private final StatementStatistics statements;

    public SqlMeters(StatementStatistics statements) {
        this.statements = statements;
    }

    public void planCacheHit() {
        planCacheHits.increment();
    }

    public void planCacheMiss() {
        planCacheMisses.increment();
    }

    /** A write refused with 40001 (an autocommitted statement's attempt, or a commit). */
    public void conflict() {
        conflicts.increment();
    }

    /** An autocommitted statement run again after a conflict. */
    public void retry() {
        retries.increment();
    }

    void slowStatement() {
        slowStatements.increment();
    }

    /** Where Calcite's plannings spend their time. */
    public PlanningTimes planning() {
        return planning;
    }

    public List<Meter> meters() {
        List<Meter> out = new ArrayList<>();
        for (StatementKind k : StatementKind.values()) {
            out.add(Meter.counter("kegdb.sql.statements", MeterUnit.NONE,
                    "Statements run, by kind (failed ones included).", () -> statements.calls(k)).tagged("kind", k.tag()));
        }
        out.add(Meter.counter("kegdb.sql.statement.seconds", MeterUnit.SECONDS,
                "Time statements took, reading their rows included (of statements run often, estimated from"
                        + " their timed runs).", () -> statements.nanos() * 1e-9));
        out.add(Meter.counter("kegdb.sql.plan.cache.hits", MeterUnit.NONE,
                "Statements whose Calcite plan came from the plan cache.", planCacheHits::sum));
        out.add(Meter.counter("kegdb.sql.plan.cache.misses", MeterUnit.NONE,
                "Statements Calcite planned (not in the plan cache, or outdated).", planCacheMisses::sum));
        out.add(Meter.counter("kegdb.sql.conflicts", MeterUnit.NONE,
                "Writes refused by a conflict (SQLState 40001): statement attempts and commits.", conflicts::sum));
        out.add(Meter.counter("kegdb.sql.retries", MeterUnit.NONE,
                "Autocommitted statements run again after a conflict.", retries::sum));
        out.add(Meter.counter("kegdb.sql.rows.returned", MeterUnit.NONE, "Rows queries returned.",
                () -> statements.rows(StatementKind.SELECT)));
        out.add(Meter.counter("kegdb.sql.rows.changed", MeterUnit.NONE,
                "Rows INSERT, UPDATE, DELETE and MERGE changed.", () -> {
                    long n = 0;
                    for (StatementKind k : StatementKind.values()) {
                        n += k == StatementKind.SELECT ? 0 : statements.rows(k);
                    }
                    return n;
                }));
        out.add(Meter.counter("kegdb.sql.slow.statements", MeterUnit.NONE,
                "Statements logged as slow (slowStatementMs).", slowStatements::sum));
        out.addAll(planning.meters());
        return List.copyOf(out);
    }
}
