package io.kegdb.sql.stats;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where Calcite's plannings of one database spent their time, phase by phase, added up over every planning
 * (meter {@code kegdb.sql.planning.seconds}, tag {@code phase}): what a statement seen once pays before it runs,
 * and which phase to cut. The planner names its phases; the ones in {@link #PHASES} have a meter of their own,
 * any other is added to {@code other}.
 */
public final class PlanningTimes {

    /** The planner's phases, in the order it runs them. */
    public static final List<String> PHASES = List.of("parse", "validate", "planner", "sql-to-rel",
            "join-conditions", "kv-rules", "rewrites", "trim", "volcano", "calcs", "generate", "compile", "explain");
    private static final String OTHER = "other";

    private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();
    private final LongAdder plannings = new LongAdder();
    private final LongAdder compiledCodeReused = new LongAdder();

    public PlanningTimes() {
        for (String p : PHASES) {
            nanos.put(p, new LongAdder());
        }
        nanos.put(OTHER, new LongAdder());
    }

    /** Adds {@code elapsed} nanoseconds to {@code phase}. */
    public void add(String phase, long elapsed) {
        LongAdder a = nanos.get(phase);
        (a != null ? a : nanos.get(OTHER)).add(elapsed);
    }

    /** One planning was made (successful or not). */
    public void planned() {
        plannings.increment();
    }

    /** A planning found its generated code compiled already (same source text) and compiled nothing. */
    public void compiledCodeReused() {
        compiledCodeReused.increment();
    }

    /** Nanoseconds spent in {@code phase} so far ({@code other} for the phases not listed). */
    public long nanos(String phase) {
        LongAdder a = nanos.get(phase);
        return a == null ? 0 : a.sum();
    }

    public long plannings() {
        return plannings.sum();
    }

    public long compiledCodeReuses() {
        return compiledCodeReused.sum();
    }

    List<Meter> meters() {
        List<Meter> out = new ArrayList<>();
        List<String> all = new ArrayList<>(PHASES);
        all.add(OTHER);
        for (String p : all) {
            LongAdder a = nanos.get(p);
            out.add(Meter.counter("kegdb.sql.planning.seconds", MeterUnit.SECONDS,
                    "Time Calcite's plannings spent, by phase.", () -> a.sum() * 1e-9).tagged("phase", p));
        }
        out.add(Meter.counter("kegdb.sql.plannings", MeterUnit.NONE,
                "Calcite plannings made (a statement planned again without a failing rule counts again).",
                plannings::sum));
        out.add(Meter.counter("kegdb.sql.compiled.code.reuses", MeterUnit.NONE,
                "Plannings whose generated Java was compiled already, for a statement of the same shape.",
                compiledCodeReused::sum));
        return out;
    }
}
