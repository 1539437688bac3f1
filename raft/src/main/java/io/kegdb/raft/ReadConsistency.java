package io.kegdb.raft;

/** How reads of a replicated store are served. */
public enum ReadConsistency {
    /** A read sees every write acknowledged before it started (Raft read index; followers serve it too). */
    LINEARIZABLE,
    /** A read sees the serving node's applied state as it is: fast, possibly stale. */
    LOCAL;

    /** Parses {@code linearizable} or {@code local}, ignoring case. */
    public static ReadConsistency parse(String text) {
        for (ReadConsistency c : values()) {
            if (c.name().equalsIgnoreCase(text.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException("readConsistency must be linearizable or local, not " + text);
    }
}
