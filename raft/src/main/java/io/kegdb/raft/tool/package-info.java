/**
 * The Raft command-line tools behind {@code kegdb node} ({@link io.kegdb.raft.tool.NodeMain}: runs one
 * member of a group in the foreground) and {@code kegdb cluster} ({@link io.kegdb.raft.tool.ClusterMain}:
 * status and membership changes of a running group). They use only the public types of
 * {@link io.kegdb.raft}.
 */
package io.kegdb.raft.tool;
