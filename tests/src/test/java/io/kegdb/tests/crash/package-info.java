/**
 * Crash safety: a child JVM (a {@code ...Child} main) writes, commits or merges and is killed with SIGKILL;
 * the reopened store must hold every acknowledged write, nothing torn, and pass its check. Covers engine
 * writes and batches, JDBC commits, contended transactional commits from several threads, a random mix
 * with merges and backups, and a kill at every merge step.
 */
package io.kegdb.tests.crash;
