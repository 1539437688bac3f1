package io.kegdb.raft.security;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Tells whether a line about a key (a remote host and a cause) is due: once a minute per key, so that a
 * misconfigured peer retrying every few milliseconds leaves one clear line, not a flood.
 */
final class RateLimitedLog {

    private static final long PERIOD_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final int MAX_KEYS = 1024;
    private final ConcurrentHashMap<String, Long> last = new ConcurrentHashMap<>();

    boolean due(String key) {
        long now = System.nanoTime();
        if (last.size() > MAX_KEYS) {
            last.clear();
        }
        Long before = last.get(key);
        if (before != null && now - before < PERIOD_NANOS) {
            return false;
        }
        return before == null ? last.putIfAbsent(key, now) == null : last.replace(key, before, now);
    }
}
