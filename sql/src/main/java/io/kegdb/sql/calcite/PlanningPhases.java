package io.kegdb.sql.calcite;

import io.kegdb.sql.stats.PlanningTimes;
import org.apache.calcite.tools.Program;

/**
 * Where one Calcite planning spent its time, phase by phase (parse, validate, each optimizer program, code
 * generation, compilation): for the planner's debug log, and added to the database's {@link PlanningTimes}
 * (meter {@code kegdb.sql.planning.seconds}). A new statement text's first planning in a fresh JVM is dominated
 * by class loading and code generation; a warm one by what the profile of these totals says.
 */
final class PlanningPhases {

    private final PlanningTimes totals;
    private final long start = System.nanoTime();
    private final StringBuilder phases = new StringBuilder();
    private long last = start;

    /** @param totals where each phase's time is added as it ends */
    PlanningPhases(PlanningTimes totals) {
        this.totals = totals;
    }

    /** Ends the phase that ran since the previous mark (or the start). */
    void mark(String phase) {
        long now = System.nanoTime();
        if (!phases.isEmpty()) {
            phases.append(", ");
        }
        phases.append(phase).append(' ').append((now - last) / 1000);
        totals.add(phase, now - last);
        last = now;
    }

    /** {@code program}, marking its own phase when it returns. */
    Program timed(String phase, Program program) {
        return (planner, rel, traits, materializations, lattices) -> {
            var out = program.run(planner, rel, traits, materializations, lattices);
            mark(phase);
            return out;
        };
    }

    @Override
    public String toString() {
        return (System.nanoTime() - start) / 1000 + " us (" + phases + " us)";
    }
}
