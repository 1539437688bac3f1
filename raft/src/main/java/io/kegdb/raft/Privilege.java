package io.kegdb.raft;

/** What a grant allows on a table's keyspace (see {@code docs/SECURITY.md} for how writes are told apart). */
public enum Privilege {
    SELECT, INSERT, UPDATE, DELETE;

    /** This privilege's bit in a grant's mask. */
    public int bit() {
        return 1 << ordinal();
    }

    /** Every privilege's bit. */
    public static final int ALL = 0b1111;
}
