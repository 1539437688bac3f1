package io.kegdb.sql.direct;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Splits the SQL subset KegDB parses itself (DDL and the key/value statement shapes) into tokens.
 * Unquoted identifiers and keywords are upper-cased, as Calcite does.
 */
public final class Lexer {

    enum Kind { WORD, QUOTED, STRING, NUMBER, BINARY, PARAM, SYMBOL, END }

    public record Token(Kind kind, String text, int position) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equals(word);
        }

        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
        }

        /** An identifier: a word or a quoted name. */
        boolean isName() {
            return kind == Kind.WORD || kind == Kind.QUOTED;
        }
    }

    private Lexer() {
    }

    /** The tokens of {@code sql} ending with END, or null if it holds something outside the subset. */
    public static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (true) {
            while (i < n) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                    while (i < n && sql.charAt(i) != '\n') {
                        i++;
                    }
                } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    int end = sql.indexOf("*/", i + 2);
                    if (end < 0) {
                        return null;
                    }
                    i = end + 2;
                } else {
                    break;
                }
            }
            if (i >= n) {
                out.add(new Token(Kind.END, "", n));
                return out;
            }
            int start = i;
            char c = sql.charAt(i);
            if ((c == 'X' || c == 'x') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int end = sql.indexOf('\'', i + 2);
                if (end < 0) {
                    return null;
                }
                String hex = sql.substring(i + 2, end);
                if (hex.length() % 2 != 0 || !hex.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
                    return null;
                }
                out.add(new Token(Kind.BINARY, hex, start));
                i = end + 1;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, sql.substring(start, i).toUpperCase(Locale.ROOT), start));
            } else if (c == '"') {
                StringBuilder b = new StringBuilder();
                i = quoted(sql, i, '"', b);
                if (i < 0) {
                    return null;
                }
                out.add(new Token(Kind.QUOTED, b.toString(), start));
            } else if (c == '\'') {
                StringBuilder b = new StringBuilder();
                i = quoted(sql, i, '\'', b);
                if (i < 0) {
                    return null;
                }
                out.add(new Token(Kind.STRING, b.toString(), start));
            } else if (Character.isDigit(c)) {
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                if (i < n && (Character.isLetter(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    return null; // decimals and exponents: left to Calcite
                }
                out.add(new Token(Kind.NUMBER, sql.substring(start, i), start));
            } else if (c == '?') {
                out.add(new Token(Kind.PARAM, "?", start));
                i++;
            } else if ("(),=*;.-".indexOf(c) >= 0) {
                out.add(new Token(Kind.SYMBOL, String.valueOf(c), start));
                i++;
            } else {
                return null;
            }
        }
    }

    /** Reads a quoted text starting at {@code i} (doubled quotes escape); returns the index after it or -1. */
    private static int quoted(String sql, int i, char quote, StringBuilder into) {
        int n = sql.length();
        i++;
        while (i < n) {
            int end = sql.indexOf(quote, i);
            if (end < 0) {
                return -1;
            }
            into.append(sql, i, end);
            if (end + 1 < n && sql.charAt(end + 1) == quote) {
                into.append(quote);
                i = end + 2;
                continue;
            }
            return end + 1;
        }
        return -1;
    }

    static byte[] hex(String text) {
        return HexFormat.of().parseHex(text);
    }
}
