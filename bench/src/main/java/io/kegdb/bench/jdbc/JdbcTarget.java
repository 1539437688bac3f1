package io.kegdb.bench.jdbc;

import java.nio.file.Path;

/** A database the JDBC benchmark runs against, with its URL and table definition. */
public enum JdbcTarget {
    /** KegDB embedded, durability=sync: commits return after fsync. */
    KEGDB("KegDB", "CREATE TABLE BENCH (K VARCHAR PRIMARY KEY, V VARCHAR)") {
        @Override
        public String url(Path dir) {
            return "jdbc:kegdb:" + dir.resolve("kegdb") + "?durability=sync";
        }
    },
    /** SQLite through sqlite-jdbc with its defaults (rollback journal, synchronous=FULL). */
    SQLITE("SQLite", "CREATE TABLE BENCH (K TEXT PRIMARY KEY, V TEXT)") {
        @Override
        public String url(Path dir) {
            return "jdbc:sqlite:" + dir.resolve("sqlite.db");
        }
    },
    /** H2 file database with its defaults (commits are not fsynced). */
    H2("H2", "CREATE TABLE BENCH (K VARCHAR(16) PRIMARY KEY, V VARCHAR(128))") {
        @Override
        public String url(Path dir) {
            return "jdbc:h2:file:" + dir.resolve("h2").toAbsolutePath();
        }
    };

    private final String label;
    private final String createTable;

    JdbcTarget(String label, String createTable) {
        this.label = label;
        this.createTable = createTable;
    }

    public abstract String url(Path dir);

    public String label() {
        return label;
    }

    String createTable() {
        return createTable;
    }
}
