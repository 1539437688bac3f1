package io.kegdb.jdbc.console;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits console input into statements at the semicolons outside string literals, quoted identifiers and
 * comments, so that each statement runs (and can fail) on its own.
 */
public final class SqlStatements {

    private SqlStatements() {
    }

    /** The statements of {@code text}, trimmed, without their semicolons; pieces that are only comments are left out. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean hasCode = false;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = closingQuote(text, i);
                hasCode = true;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int nl = text.indexOf('\n', i);
                end = nl < 0 ? n : nl;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int close = text.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
            } else if (c == ';') {
                add(out, current, hasCode);
                current.setLength(0);
                hasCode = false;
                i++;
                continue;
            } else {
                end = i + 1;
                hasCode |= !Character.isWhitespace(c);
            }
            current.append(text, i, end);
            i = end;
        }
        add(out, current, hasCode);
        return out;
    }

    /** The index after the quote that closes the one at {@code start} (a doubled quote is part of the text). */
    private static int closingQuote(String text, int start) {
        char q = text.charAt(start);
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == q) {
                if (i + 1 < text.length() && text.charAt(i + 1) == q) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return text.length();
    }

    private static void add(List<String> out, StringBuilder statement, boolean hasCode) {
        if (hasCode) {
            out.add(statement.toString().trim());
        }
    }
}
