package io.kegdb.sql;

/**
 * Transaction isolation levels of a {@link SqlSession}. At every level each autocommitted statement is
 * atomic (what it read is unchanged when its writes are applied, or it runs again), writes are invisible
 * until commit, and a failed commit writes nothing. The levels differ in what a transaction reads and what
 * its commit checks:
 * <ul>
 *   <li>{@link #READ_COMMITTED}: each statement reads the latest committed state; the commit checks the rows
 *       the transaction's UPDATE, DELETE and {@code SELECT ... FOR UPDATE} statements read.</li>
 *   <li>{@link #REPEATABLE_READ}: the transaction reads one snapshot, taken at its first statement; the
 *       commit also checks that no row it writes changed since (first committer wins): snapshot isolation.</li>
 *   <li>{@link #SERIALIZABLE}: as REPEATABLE_READ, and the commit checks everything the transaction read,
 *       ranges and aggregates included, so write skew and phantoms fail it.</li>
 * </ul>
 * A failed check is SQLState 40001: nothing was written and the transaction should be run again.
 */
public enum Isolation {
    READ_COMMITTED,
    REPEATABLE_READ,
    SERIALIZABLE
}
