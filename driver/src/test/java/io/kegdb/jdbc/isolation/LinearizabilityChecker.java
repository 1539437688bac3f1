package io.kegdb.jdbc.isolation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Wing and Gong's search for a linearization of one register's history, with Lowe's memo of visited
 * (operations done, register value) states so that histories of a few hundred operations are checked quickly.
 * An operation may be placed next only if it was invoked before every remaining operation was answered;
 * operations with an unknown outcome may also be left out.
 */
public final class LinearizabilityChecker {

    private final List<RegisterOperation> ops;
    private final long initial;
    private final Set<State> visited = new HashSet<>();
    private final int mustComplete;

    private record State(BitSet done, long value) {
    }

    private LinearizabilityChecker(List<RegisterOperation> history, long initial) {
        this.ops = List.copyOf(history);
        this.initial = initial;
        this.mustComplete = (int) ops.stream().filter(RegisterOperation::completed).count();
    }

    /**
     * Empty when {@code history} is linearizable from {@code initial}; otherwise a description of the longest
     * prefix found and the operations none of which could come next.
     */
    public static Optional<String> violation(List<RegisterOperation> history, long initial) {
        LinearizabilityChecker c = new LinearizabilityChecker(history, initial);
        return c.search(new BitSet(), initial, 0) ? Optional.empty() : Optional.of(c.describe());
    }

    private int deepest = -1;
    private String deepestState = "";

    private boolean search(BitSet done, long value, int completedDone) {
        if (completedDone == mustComplete) {
            return true;
        }
        if (!visited.add(new State((BitSet) done.clone(), value))) {
            return false;
        }
        if (completedDone > deepest) {
            deepest = completedDone;
            deepestState = "value " + value + " after " + completedDone + " completed operations; candidates "
                    + candidates(done);
        }
        long horizon = Long.MAX_VALUE; // the earliest answer among the operations not yet placed
        for (int i = done.nextClearBit(0); i < ops.size(); i = done.nextClearBit(i + 1)) {
            horizon = Math.min(horizon, ops.get(i).answered());
        }
        for (int i = done.nextClearBit(0); i < ops.size(); i = done.nextClearBit(i + 1)) {
            RegisterOperation op = ops.get(i);
            if (op.invoked() > horizon || !op.allowedOn(value)) {
                continue;
            }
            done.set(i);
            boolean found = search(done, op.after(value), completedDone + (op.completed() ? 1 : 0));
            done.clear(i);
            if (found) {
                return true;
            }
        }
        return false;
    }

    private List<RegisterOperation> candidates(BitSet done) {
        List<RegisterOperation> open = new ArrayList<>();
        for (int i = done.nextClearBit(0); i < ops.size() && open.size() < 6; i = done.nextClearBit(i + 1)) {
            open.add(ops.get(i));
        }
        return open;
    }

    private String describe() {
        return "not linearizable from initial value " + initial + " (" + ops.size() + " operations): stuck at "
                + deepestState;
    }
}
