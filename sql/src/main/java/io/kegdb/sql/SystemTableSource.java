package io.kegdb.sql;

import java.util.List;
import java.util.Objects;

/**
 * A read-only table of schema {@code SYS} contributed by whoever opens the database (the JDBC driver adds
 * {@code SYS.RAFT} this way for replicated stores, so this module needs to know nothing of Raft). Its rows are
 * asked for each time the table is scanned; see {@link DatabaseOptions#systemTables()}.
 */
public interface SystemTableSource {

    /** The SQL types a system column may have, with the Java type of its values. */
    enum Kind {
        /** {@link String} values. */
        VARCHAR,
        /** {@link Long} values. */
        BIGINT,
        /** {@link Boolean} values. */
        BOOLEAN
    }

    /**
     * One column.
     *
     * @param name     upper-case column name
     * @param kind     its type
     * @param nullable whether rows may hold null in it
     */
    record Column(String name, Kind kind, boolean nullable) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** The table's name in schema SYS (upper case; must not be one of the built-in TABLES, SEGMENTS, STATS). */
    String name();

    /** The columns, in order; at least two. */
    List<Column> columns();

    /**
     * The current rows, one array per row with one value per column in {@link #columns()} order. A runtime
     * exception thrown here fails the statement scanning the table.
     */
    List<Object[]> rows();
}
