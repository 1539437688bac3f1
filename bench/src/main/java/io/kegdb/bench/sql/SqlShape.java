package io.kegdb.bench.sql;

import java.util.Random;
import java.util.function.BiFunction;

/**
 * One statement shape: its text with {@code ?} for the prepared form, and how to draw a parameter set. The ad
 * hoc form is the same text with the parameters written in as literals, so each execution is a new text.
 *
 * @param label what the table calls it
 * @param sql the text with {@code ?} parameters
 * @param parameters draws one parameter set (Strings and Integers) from a random source and the row count
 */
public record SqlShape(String label, String sql, BiFunction<Random, Integer, Object[]> parameters) {

    /** True when the statement orders its whole result, so rows compare in order; otherwise as a multiset. */
    public boolean ordered() {
        return sql.contains("ORDER BY");
    }

    /** The text with each {@code ?} replaced by its parameter as an SQL literal (strings quoted, quotes doubled). */
    public String adHoc(Object[] params) {
        StringBuilder sb = new StringBuilder(sql.length() + 16 * params.length);
        int p = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch != '?') {
                sb.append(ch);
            } else if (params[p] instanceof String s) {
                sb.append('\'').append(s.replace("'", "''")).append('\'');
                p++;
            } else {
                sb.append(params[p++]);
            }
        }
        if (p != params.length) {
            throw new IllegalStateException(label + ": " + params.length + " parameters for " + p + " markers");
        }
        return sb.toString();
    }
}
