package io.kegdb.sql.txn;

/**
 * What a view knows of a key without asking a store whose reads are round trips
 * ({@link ReadView#presence}): present, absent, or unknown (only that store could tell, and a write's
 * apply-time check will).
 */
public enum Presence {
    PRESENT,
    ABSENT,
    UNKNOWN;

    static Presence of(boolean present) {
        return present ? PRESENT : ABSENT;
    }
}
