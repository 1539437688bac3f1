package io.kegdb.raft;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import io.kegdb.raft.storage.KegRaftServiceFactory;

import java.time.Duration;

/**
 * How a {@link RangeHost} runs each replica it hosts: the node's options for its own group, and the same for
 * the ranges its splits make, so that a split range behaves as the range it came from.
 *
 * @param electionTimeoutMs    see {@link RaftNodeOptions.Builder#electionTimeoutMs(int)}
 * @param snapshotIntervalSecs see {@link RaftNodeOptions.Builder#snapshotIntervalSecs(int)}
 * @param requestTimeout       see {@link RaftNodeOptions.Builder#requestTimeout(Duration)}
 * @param readConsistency      how reads through a replica's own store are served
 * @param logSync              see {@link RaftNodeOptions.Builder#logSync(boolean)}
 * @param serviceFactory       the SOFAJRaft storages of every replica
 */
record ReplicaSettings(int electionTimeoutMs, int snapshotIntervalSecs, Duration requestTimeout,
                       ReadConsistency readConsistency, boolean logSync, JRaftServiceFactory serviceFactory) {

    /** A node's settings. */
    static ReplicaSettings of(RaftNodeOptions options) {
        return new ReplicaSettings(options.electionTimeoutMs(), options.snapshotIntervalSecs(),
                options.requestTimeout(), options.readConsistency(), options.logSync(), options.serviceFactory());
    }

    /** The settings of a host started with only an address and a directory. */
    static ReplicaSettings defaults() {
        return new ReplicaSettings(RaftNodeOptions.DEFAULT_ELECTION_TIMEOUT_MS, 600, Duration.ofSeconds(15),
                ReadConsistency.LINEARIZABLE, true, new KegRaftServiceFactory());
    }

    ReplicaSettings withElectionTimeoutMs(int ms) {
        return new ReplicaSettings(ms, snapshotIntervalSecs, requestTimeout, readConsistency, logSync, serviceFactory);
    }
}
