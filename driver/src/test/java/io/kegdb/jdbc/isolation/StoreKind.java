package io.kegdb.jdbc.isolation;

/** The three kinds of store a KegDB connection can be opened on; every isolation test runs on each. */
enum StoreKind {
    /** A directory on disk ({@code jdbc:kegdb:<dir>}). */
    EMBEDDED,
    /** A named in-memory store ({@code jdbc:kegdb:mem:<name>}). */
    MEMORY,
    /** A three-node Raft group in this JVM, reached through thin clients ({@code jdbc:kegdb:raft://...}). */
    RAFT_CLUSTER
}
