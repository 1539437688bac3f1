package io.kegdb.bench.txn;

import io.kegdb.bench.cluster.LocalCluster;

/**
 * A database of one run, reached by its JDBC URL; closing it stops what was started for it (the nodes of a
 * cluster), while file and memory databases need nothing stopped.
 */
final class TargetDatabase implements AutoCloseable {

    private final String url;
    private final LocalCluster cluster;

    private TargetDatabase(String url, LocalCluster cluster) {
        this.url = url;
        this.cluster = cluster;
    }

    /** A database the driver opens from the URL alone. */
    static TargetDatabase at(String url) {
        return new TargetDatabase(url, null);
    }

    /** The group {@code group} of {@code cluster}, through the thin client. */
    static TargetDatabase onCluster(LocalCluster cluster, String group) {
        return new TargetDatabase("jdbc:kegdb:raft://" + cluster.peers() + "/" + group, cluster);
    }

    String url() {
        return url;
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
