package io.kegdb.jdbc.tool;

import io.kegdb.raft.tool.ClusterMain;

/**
 * {@code kegdb cluster}: the raft module's {@link ClusterMain}, with the SQL key encoding its {@code split
 * --table T --at VALUE} needs ({@link TableKeyEncoding}). The raft module cannot import the SQL layer, and a
 * node has no catalog decoder either, so the key is encoded here, on the operator's side, from the catalog read
 * through the cluster like any client reads it; the node is sent the store key.
 */
public final class ClusterCommandMain {

    private ClusterCommandMain() {
    }

    public static void main(String[] args) {
        System.exit(ClusterMain.run(args, System.out, System.err, System.console(), new TableKeyEncoding()));
    }
}
