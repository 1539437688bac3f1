package io.kegdb.sql.stats;

import java.util.Locale;

/** The kind of a statement, from its first word: a tag of the statement meters and a column of SYS.STATEMENTS. */
public enum StatementKind {
    SELECT, INSERT, UPDATE, DELETE, MERGE, DDL, OTHER;

    /** The tag value: the kind's name in lower case. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind of a statement whose normalized text is {@code text}. */
    public static StatementKind of(String text) {
        int start = 0;
        while (start < text.length() && !Character.isLetter(text.charAt(start))) {
            start++; // "(SELECT ...)"
        }
        int end = start;
        while (end < text.length() && Character.isLetter(text.charAt(end))) {
            end++;
        }
        return switch (text.substring(start, end).toUpperCase(Locale.ROOT)) {
            case "SELECT", "WITH", "VALUES", "TABLE" -> SELECT;
            case "INSERT" -> INSERT;
            case "UPDATE" -> UPDATE;
            case "DELETE" -> DELETE;
            case "MERGE", "UPSERT" -> MERGE;
            case "CREATE", "DROP", "ALTER" -> DDL;
            default -> OTHER;
        };
    }
}
