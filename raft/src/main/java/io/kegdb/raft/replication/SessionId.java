package io.kegdb.raft.replication;

import java.security.SecureRandom;

/**
 * The 128-bit random id of one client session. The client picks it, so opening a session can be resent like
 * any other request: a second opening of the same id only refreshes the session.
 */
record SessionId(long high, long low) {

    private static final SecureRandom RANDOM = new SecureRandom();

    static SessionId random() {
        return new SessionId(RANDOM.nextLong(), RANDOM.nextLong());
    }

    @Override
    public String toString() {
        return String.format("%016x%016x", high, low);
    }
}
