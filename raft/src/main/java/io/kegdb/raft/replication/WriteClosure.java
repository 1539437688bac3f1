package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Status;

import java.util.function.BiConsumer;

/**
 * The callback of one proposed write: the state machine stores the entry's {@link DataStore.Outcome} here
 * before it runs the closure, so the proposer learns what applying did (a put-if-absent conflict included).
 */
final class WriteClosure implements Closure {

    private final BiConsumer<Status, DataStore.Outcome> callback;
    private volatile DataStore.Outcome outcome;

    WriteClosure(BiConsumer<Status, DataStore.Outcome> callback) {
        this.callback = callback;
    }

    void setOutcome(DataStore.Outcome outcome) {
        this.outcome = outcome;
    }

    @Override
    public void run(Status status) {
        callback.accept(status, outcome);
    }
}
