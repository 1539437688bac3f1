package io.kegdb.jdbc.differential;

import java.util.regex.Pattern;

/**
 * The three databases of the differential test and how a generated statement is spelt for each. The generator
 * writes KegDB's SQL, which H2 reads as it is; for SQLite a few spellings are rewritten to the ones it knows
 * ({@code CHAR_LENGTH} is {@code LENGTH}, {@code SUBSTRING(x FROM a FOR b)} is {@code SUBSTR(x, a, b)},
 * {@code FETCH FIRST n ROWS ONLY} is {@code LIMIT n}). Statements whose meaning differs by more than spelling
 * (upserts) carry a text per database ({@link Case.Step}).
 */
enum Dialect {
    KEGDB, H2, SQLITE;

    private static final Pattern SUBSTRING = Pattern.compile("SUBSTRING\\(([\\w.]+) FROM (\\d+) FOR (\\d+)\\)");
    private static final Pattern FETCH_FIRST = Pattern.compile("FETCH FIRST (\\d+) ROWS? ONLY");

    String type(ColumnType t) {
        return this == SQLITE ? t.sqliteSql() : t.sql();
    }

    /** A statement written in KegDB's SQL, spelt for this database. */
    String spell(String sql) {
        if (this != SQLITE) {
            return sql;
        }
        String s = sql.replace("CHAR_LENGTH(", "LENGTH(");
        s = SUBSTRING.matcher(s).replaceAll("SUBSTR($1, $2, $3)");
        return FETCH_FIRST.matcher(s).replaceAll("LIMIT $1");
    }
}
