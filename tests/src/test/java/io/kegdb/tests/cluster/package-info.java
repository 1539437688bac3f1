/**
 * Replication through JDBC: a 3-node Raft group in this JVM (embedded-member and thin-client URLs), and
 * three {@code ./kegdb node} processes killed and restarted under load without losing an acknowledged write.
 */
package io.kegdb.tests.cluster;
