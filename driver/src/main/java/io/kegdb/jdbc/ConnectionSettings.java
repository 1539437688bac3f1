package io.kegdb.jdbc;

import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.sql.SqlState;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;

/**
 * What a KegDB URL and its {@link Properties} ask for: which store (a directory or a named in-memory store),
 * the connection's durability and read-only flag, and the engine options used if this connection opens
 * the store.
 *
 * @param url             the URL as given
 * @param directory       the database directory (absolute, normalized), or null for an in-memory store
 * @param memoryName      the in-memory store's name, or null for a directory
 * @param durability      durability of commits and autocommitted statements
 * @param readOnly        whether the connection rejects writes
 * @param user            user name a tool sent, for {@code getUserName()}; may be null
 * @param engineOptions   engine options to open the store with
 * @param explicitEngine  the engine options the caller set explicitly, as given
 * @param raft            the Raft client or member settings, or null for a local store
 * @param slowStatementMs statements taking at least this many milliseconds are logged; 0: none
 * @param statementStatistics whether the connection's statements are counted in SYS.STATEMENTS and the meters
 */
record ConnectionSettings(String url, Path directory, String memoryName, Durability durability, boolean readOnly,
                          String user, BitcaskOptions engineOptions, Map<ConnectionOption, String> explicitEngine,
                          RaftSettings raft, long slowStatementMs, boolean statementStatistics,
                          String password) {

    /** Never shows the password. */
    @Override
    public String toString() {
        return "ConnectionSettings[url=" + shown(url) + ", user=" + user + ", raft=" + raft + "]";
    }

    private static final java.util.regex.Pattern PASSWORD_OPTION =
            java.util.regex.Pattern.compile("(?i)([?&]password=)[^&]*");

    /** {@code url} as messages and logs may show it: a password option's value is replaced by {@code ***}. */
    static String shown(String url) {
        return url == null ? null : PASSWORD_OPTION.matcher(url).replaceAll("$1***");
    }

    /**
     * The user's name as SQL resolves an identifier, as CREATE USER stored it: upper case unless written in
     * double quotes ({@code "alice"} keeps its case). Null without a user.
     */
    String sqlUser() {
        if (user == null || user.isEmpty()) {
            return null;
        }
        if (user.length() >= 2 && user.startsWith("\"") && user.endsWith("\"")) {
            return user.substring(1, user.length() - 1).replace("\"\"", "\"");
        }
        return user.toUpperCase(java.util.Locale.ROOT);
    }

    static final String PREFIX = "jdbc:kegdb:";
    static final String MEMORY_PREFIX = "mem:";

    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    /** Parses {@code url} and merges {@code info}; every unknown option or bad value is an SQLException naming it. */
    static ConnectionSettings parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "not a KegDB URL: " + shown(url) + " (expected " + PREFIX + "<dir>)");
        }
        String rest = url.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String location = q < 0 ? rest : rest.substring(0, q);
        Map<ConnectionOption, String> options = new EnumMap<>(ConnectionOption.class);
        if (q >= 0) {
            for (String pair : rest.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                            "option '" + pair + "' in URL " + shown(url) + " has no value (expected name=value)");
                }
                String name = decode(pair.substring(0, eq));
                options.put(ConnectionOption.byName(name), decode(pair.substring(eq + 1)));
            }
        }
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                ConnectionOption option = ConnectionOption.byName(name);
                String value = info.getProperty(name);
                String fromUrl = options.get(option);
                if (fromUrl != null && !fromUrl.equals(value) && option != ConnectionOption.USER
                        && option != ConnectionOption.PASSWORD) {
                    throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "option " + option.key() + " is '" + fromUrl
                            + "' in the URL but '" + value + "' in the properties");
                }
                options.putIfAbsent(option, value);
            }
        }

        Durability durability = Durability.SYNC;
        boolean readOnly = false;
        long slowStatementMs = 0;
        boolean statementStatistics = true;
        BitcaskOptions.Builder engine = BitcaskOptions.builder();
        Map<ConnectionOption, String> explicitEngine = new EnumMap<>(ConnectionOption.class);
        for (Map.Entry<ConnectionOption, String> e : options.entrySet()) {
            ConnectionOption option = e.getKey();
            String value = e.getValue();
            if (option.isEngineOption()) {
                option.applyTo(engine, value);
                explicitEngine.put(option, value.trim());
            } else if (option == ConnectionOption.DURABILITY) {
                durability = option.parseDurability(value);
            } else if (option == ConnectionOption.READ_ONLY) {
                readOnly = option.parseBoolean(value);
            } else if (option == ConnectionOption.SLOW_STATEMENT_MS) {
                slowStatementMs = option.parseMillis(value);
            } else if (option == ConnectionOption.STATEMENT_STATISTICS) {
                statementStatistics = option.parseBoolean(value);
            }
        }
        engine.readOnly(readOnly);
        String user = options.get(ConnectionOption.USER);
        String password = options.get(ConnectionOption.PASSWORD);
        RaftSettings raft = RaftSettings.from(location, options);
        if (raft != null && raft.isClient()) {
            return new ConnectionSettings(url, null, null, durability, readOnly, user, engine.build(),
                    Collections.unmodifiableMap(explicitEngine), raft, slowStatementMs, statementStatistics, password);
        }

        if (location.regionMatches(true, 0, MEMORY_PREFIX, 0, MEMORY_PREFIX.length())) {
            String name = location.substring(MEMORY_PREFIX.length());
            if (name.isEmpty()) {
                throw JdbcErrors.of(SqlState.CANNOT_CONNECT,
                        "in-memory URL needs a name: " + PREFIX + MEMORY_PREFIX + "<name>");
            }
            if (raft != null) {
                throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "an in-memory store cannot be a Raft member");
            }
            return new ConnectionSettings(url, null, name, durability, readOnly, user, engine.build(),
                    Collections.unmodifiableMap(explicitEngine), null, slowStatementMs, statementStatistics, password);
        }
        if (location.isEmpty()) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "URL " + shown(url) + " names no database directory (expected "
                    + PREFIX + "<dir>)");
        }
        Path dir;
        try {
            dir = Path.of(location).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT,
                    "invalid database directory '" + location + "': " + e.getMessage(), e);
        }
        return new ConnectionSettings(url, dir, null, durability, readOnly, user, engine.build(),
                Collections.unmodifiableMap(explicitEngine), raft, slowStatementMs, statementStatistics, password);
    }

    private static String decode(String s) throws SQLException {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "malformed %-escape in URL option '" + s + "'", e);
        }
    }

    boolean inMemory() {
        return memoryName != null;
    }

    /** The name of the store for messages and logs. */
    String storeName() {
        if (raft != null && raft.isClient()) {
            return raft.clientKey();
        }
        return inMemory() ? MEMORY_PREFIX + memoryName : directory.toString();
    }
}
