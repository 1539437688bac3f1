package io.kegdb.jdbc;

import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.sql.SqlState;

import java.sql.SQLException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The options a KegDB URL ({@code ?k=v&...}) or the connection {@link java.util.Properties} may carry. Names
 * match case-insensitively. Engine options apply when the connection is the one that opens the store.
 */
enum ConnectionOption {
    /** {@code sync} (default): commits return after fsync; {@code nosync}: after the page cache. */
    DURABILITY("durability", false, "sync|nosync"),
    /** The connection rejects writes; a store opened by it is opened read-only. */
    READ_ONLY("readOnly", false, "true|false"),
    /** Bytes per data segment, e.g. {@code 67108864} or {@code 64m}. */
    SEGMENT_SIZE("segmentSize", true, "bytes, e.g. 64m"),
    MAX_KEY_SIZE("maxKeySize", true, "bytes"),
    MAX_VALUE_SIZE("maxValueSize", true, "bytes"),
    /** How often background merges are considered, e.g. {@code 10m}, {@code PT1H}; {@code 0} disables them. */
    MERGE_INTERVAL("mergeInterval", true, "duration, e.g. 10m, 30s, PT1H or 0"),
    MERGE_MIN_FILES("mergeMinFiles", true, "count"),
    MERGE_GARBAGE_RATIO("mergeGarbageRatio", true, "ratio in [0, 1]"),
    MAX_OPEN_FILES("maxOpenFiles", true, "count"),
    /** Skip corrupt records of sealed segments on open instead of failing. */
    REPAIR("repair", true, "true|false"),
    /** Raft: {@code linearizable} (default) or {@code local} reads. */
    READ_CONSISTENCY("readConsistency", false, "linearizable|local"),
    /** Raft: how long one store request may take, retries across leader changes included (default 10s). */
    RAFT_TIMEOUT("raft.timeout", false, "duration, e.g. 10s"),
    /** Embedded Raft member: the group to join. */
    RAFT_GROUP("raft.group", false, "group name"),
    /** Embedded Raft member: this process's node address; its RPC server binds exactly this. */
    RAFT_SELF("raft.self", false, "host:port"),
    /** Embedded Raft member: the group's nodes. */
    RAFT_PEERS("raft.peers", false, "host:port,host:port,..."),
    /** Embedded Raft member: election timeout in milliseconds (default 600). */
    RAFT_ELECTION_TIMEOUT("raft.electionTimeoutMs", false, "milliseconds"),
    /** Raft: {@code true} makes every connection to the nodes TLS (pgjdbc's name); needs {@code sslrootcert}. */
    SSL("ssl", false, "true|false"),
    /** Raft, with {@code ssl=true}: the cluster CA's certificate (PEM) the nodes' certificates are checked against. */
    SSL_ROOT_CERT("sslrootcert", false, "PEM file"),
    /** Raft, with {@code ssl=true}: this client's certificate (PEM, made by kegdb cert client); a member's node certificate. */
    SSL_CERT("sslcert", false, "PEM file"),
    /** Raft, with {@code ssl=true}: the private key of {@code sslcert} (PKCS#8 PEM). */
    SSL_KEY("sslkey", false, "PEM file"),
    /**
     * Statements of the connection taking at least this many milliseconds are logged at WARN (SLF4J logger
     * {@code io.kegdb.sql.SlowStatements}) with their normalized text; {@code 0} (default) logs none.
     */
    SLOW_STATEMENT_MS("slowStatementMs", false, "milliseconds, 0 = off"),
    /**
     * {@code true} (default): the connection's statements are counted in SYS.STATEMENTS and the statement
     * meters; {@code false}: they are not (no clock read per statement unless {@code slowStatementMs} is set).
     */
    STATEMENT_STATISTICS("statementStatistics", false, "true|false"),
    /** Accepted for tools that always send credentials; KegDB has no authentication. */
    USER("user", false, "any"),
    /** Accepted for tools that always send credentials; KegDB has no authentication. */
    PASSWORD("password", false, "any");

    private final String key;
    private final boolean engine;
    private final String allowed;

    ConnectionOption(String key, boolean engine, String allowed) {
        this.key = key;
        this.engine = engine;
        this.allowed = allowed;
    }

    /** The option's name as documented. */
    String key() {
        return key;
    }

    /** True for options that configure the store rather than the connection. */
    boolean isEngineOption() {
        return engine;
    }

    static ConnectionOption byName(String name) throws SQLException {
        for (ConnectionOption o : values()) {
            if (o.key.equalsIgnoreCase(name)) {
                return o;
            }
        }
        StringBuilder known = new StringBuilder();
        for (ConnectionOption o : values()) {
            known.append(known.length() == 0 ? "" : ", ").append(o.key);
        }
        throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                "unknown connection option '" + name + "' (known: " + known + ")");
    }

    /** Applies {@code value} to the engine options being built; only for {@link #isEngineOption()}. */
    void applyTo(BitcaskOptions.Builder b, String value) throws SQLException {
        try {
            switch (this) {
                case SEGMENT_SIZE -> b.segmentSize(parseBytes(value));
                case MAX_KEY_SIZE -> b.maxKeySize(Math.toIntExact(parseBytes(value)));
                case MAX_VALUE_SIZE -> b.maxValueSize(Math.toIntExact(parseBytes(value)));
                case MERGE_INTERVAL -> b.mergeInterval(parseDuration(value));
                case MERGE_MIN_FILES -> b.mergeMinFiles(Integer.parseInt(value.trim()));
                case MERGE_GARBAGE_RATIO -> b.mergeGarbageRatio(Double.parseDouble(value.trim()));
                case MAX_OPEN_FILES -> b.maxOpenFiles(Integer.parseInt(value.trim()));
                case REPAIR -> b.repair(parseBoolean(value));
                default -> throw new IllegalStateException(key + " is not an engine option");
            }
        } catch (NumberFormatException | ArithmeticException | DateTimeParseException e) {
            throw badValue(value, e);
        } catch (IllegalArgumentException e) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "bad value '" + value + "' for option " + key + ": "
                    + e.getMessage(), e);
        }
    }

    /** This engine option's value in {@code o}, for comparing what two connections asked for. */
    Object valueIn(BitcaskOptions o) {
        return switch (this) {
            case SEGMENT_SIZE -> o.segmentSize();
            case MAX_KEY_SIZE -> o.maxKeySize();
            case MAX_VALUE_SIZE -> o.maxValueSize();
            case MERGE_INTERVAL -> o.mergeInterval();
            case MERGE_MIN_FILES -> o.mergeMinFiles();
            case MERGE_GARBAGE_RATIO -> o.mergeGarbageRatio();
            case MAX_OPEN_FILES -> o.maxOpenFiles();
            case REPAIR -> o.repair();
            default -> throw new IllegalStateException(key + " is not an engine option");
        };
    }

    Durability parseDurability(String value) throws SQLException {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "sync" -> Durability.SYNC;
            case "nosync", "no_sync" -> Durability.NO_SYNC;
            default -> throw badValue(value, null);
        };
    }

    /** A whole, non-negative number of milliseconds. */
    long parseMillis(String value) throws SQLException {
        try {
            long ms = Long.parseLong(value.trim());
            if (ms >= 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            throw badValue(value, e);
        }
        throw badValue(value, null);
    }

    boolean parseBoolean(String value) throws SQLException {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw badValue(value, null);
        };
    }

    private SQLException badValue(String value, Throwable cause) {
        return JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "bad value '" + value + "' for option " + key
                + " (expected " + allowed + ")", cause);
    }

    /** Plain bytes or a binary suffix: 4096, 64k, 256m, 1g. */
    static long parseBytes(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("k")) {
            unit = 1L << 10;
        } else if (v.endsWith("m")) {
            unit = 1L << 20;
        } else if (v.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit != 1) {
            v = v.substring(0, v.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(v.trim()), unit);
    }

    /** ISO-8601 ({@code PT10M}) or a number with ms/s/m/h/d; a bare {@code 0} is zero. */
    static Duration parseDuration(String value) {
        String v = value.trim();
        if (v.regionMatches(true, 0, "P", 0, 1)) {
            return Duration.parse(v);
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (lower.equals("0")) {
            return Duration.ZERO;
        }
        if (lower.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2)));
        }
        long n = Long.parseLong(lower.substring(0, lower.length() - 1));
        return switch (lower.charAt(lower.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> throw new NumberFormatException("no unit in '" + value + "'");
        };
    }
}
