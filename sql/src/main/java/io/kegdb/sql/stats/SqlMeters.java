package io.kegdb.sql.stats;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The SQL layer's counters of one database, and its meters ({@code kegdb.sql.*}). */
public final class SqlMeters {

    private final LongAdder[] statements = new LongAdder[StatementKind.values().length];
    private final LongAdder statementNanos = new LongAdder();
    private final LongAdder planCacheHits = new LongAdder();
    private final LongAdder planCacheMisses = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder rowsReturned = new LongAdder();
    private final LongAdder rowsChanged = new LongAdder();
    private final LongAdder slowStatements = new LongAdder();

    public SqlMeters() {
        for (int i = 0; i < statements.length; i++) {
            statements[i] = new LongAdder();
        }
    }

    /** One statement run (or failed) after {@code elapsedNanos}, returning or changing {@code rows}. */
    public void statement(StatementKind kind, long elapsedNanos, long rows) {
        statements[kind.ordinal()].increment();
        statementNanos.add(elapsedNanos);
        if (rows > 0) {
            (kind == StatementKind.SELECT ? rowsReturned : rowsChanged).add(rows);
        }
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

    public List<Meter> meters() {
        List<Meter> out = new ArrayList<>();
        for (StatementKind k : StatementKind.values()) {
            LongAdder n = statements[k.ordinal()];
            out.add(Meter.counter("kegdb.sql.statements", MeterUnit.NONE,
                    "Statements run, by kind (failed ones included).", n::sum).tagged("kind", k.tag()));
        }
        out.add(Meter.counter("kegdb.sql.statement.seconds", MeterUnit.SECONDS,
                "Time statements took, reading their rows included.", () -> statementNanos.sum() * 1e-9));
        out.add(Meter.counter("kegdb.sql.plan.cache.hits", MeterUnit.NONE,
                "Statements whose Calcite plan came from the plan cache.", planCacheHits::sum));
        out.add(Meter.counter("kegdb.sql.plan.cache.misses", MeterUnit.NONE,
                "Statements Calcite planned (not in the plan cache, or outdated).", planCacheMisses::sum));
        out.add(Meter.counter("kegdb.sql.conflicts", MeterUnit.NONE,
                "Writes refused by a conflict (SQLState 40001): statement attempts and commits.", conflicts::sum));
        out.add(Meter.counter("kegdb.sql.retries", MeterUnit.NONE,
                "Autocommitted statements run again after a conflict.", retries::sum));
        out.add(Meter.counter("kegdb.sql.rows.returned", MeterUnit.NONE, "Rows queries returned.",
                rowsReturned::sum));
        out.add(Meter.counter("kegdb.sql.rows.changed", MeterUnit.NONE,
                "Rows INSERT, UPDATE, DELETE and MERGE changed.", rowsChanged::sum));
        out.add(Meter.counter("kegdb.sql.slow.statements", MeterUnit.NONE,
                "Statements logged as slow (slowStatementMs).", slowStatements::sum));
        return List.copyOf(out);
    }
}
