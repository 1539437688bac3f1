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

    /** A token: its kind, its text (a literal's value, unquoted), where it starts and where it ends. */
    public record Token(Kind kind, String text, int position, int end) {
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
        return subset(allTokens(sql));
    }

    /**
     * {@code all} (from {@link #allTokens}) if it lies in the subset KegDB parses itself (whole numbers, the
     * symbols {@code (),=*;.-}), else null: one tokenizing pass serves both the subset and literal taking.
     */
    public static List<Token> subset(List<Token> all) {
        if (all == null) {
            return null;
        }
        for (Token t : all) {
            if (t.kind() == Kind.SYMBOL && (t.text().length() != 1 || SUBSET_SYMBOLS.indexOf(t.text().charAt(0)) < 0)
                    || t.kind() == Kind.NUMBER && !wholeNumber(t.text())) {
                return null;
            }
        }
        return all;
    }

    private static final String SUBSET_SYMBOLS = "(),=*;.-";

    private static boolean wholeNumber(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The index of the first character at or after {@code i} that is not white space or inside a comment
     * ({@code -- ...} to the end of the line, or a block comment); -1 if a block comment is not closed.
     */
    static int skipSpaceAndComments(String sql, int i) {
        int n = sql.length();
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
                    return -1;
                }
                i = end + 2;
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * The tokens of any statement: numbers may have a fraction or an exponent, any character is a symbol,
     * and {@code <= >= <> != ||} are one symbol each. Null only for an unterminated quote or comment, a
     * malformed binary string or a number run into a name.
     */
    public static List<Token> allTokens(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (true) {
            i = skipSpaceAndComments(sql, i);
            if (i < 0) {
                return null;
            }
            if (i >= n) {
                out.add(new Token(Kind.END, "", n, n));
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
                out.add(new Token(Kind.BINARY, hex, start, end + 1));
                i = end + 1;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, upperCase(sql, start, i), start, i));
            } else if (c == '"') {
                StringBuilder b = new StringBuilder();
                i = quoted(sql, i, '"', b);
                if (i < 0) {
                    return null;
                }
                out.add(new Token(Kind.QUOTED, b.toString(), start, i));
            } else if (c == '\'') {
                StringBuilder b = new StringBuilder();
                i = quoted(sql, i, '\'', b);
                if (i < 0) {
                    return null;
                }
                out.add(new Token(Kind.STRING, b.toString(), start, i));
            } else if (Character.isDigit(c)) {
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                i = fractionAndExponent(sql, i);
                if (i < 0 || i < n && (Character.isLetter(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    return null;
                }
                out.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
            } else if (c == '?') {
                out.add(new Token(Kind.PARAM, "?", start, i + 1));
                i++;
            } else {
                int length = i + 1 < n && TWO_CHARACTER_SYMBOLS.contains(sql.substring(i, i + 2)) ? 2 : 1;
                out.add(new Token(Kind.SYMBOL, sql.substring(i, i + length), start, i + length));
                i += length;
            }
        }
    }

    /** {@code sql[start, end)} upper-cased; plain ASCII words (nearly all) without the locale machinery. */
    private static String upperCase(String sql, int start, int end) {
        char[] out = null;
        for (int i = start; i < end; i++) {
            char c = sql.charAt(i);
            if (c >= 0x80) {
                return sql.substring(start, end).toUpperCase(Locale.ROOT);
            }
            if (c >= 'a' && c <= 'z') {
                if (out == null) {
                    out = new char[end - start];
                    sql.getChars(start, end, out, 0);
                }
                out[i - start] = (char) (c - ('a' - 'A'));
            }
        }
        return out == null ? sql.substring(start, end) : new String(out);
    }

    private static final List<String> TWO_CHARACTER_SYMBOLS = List.of("<=", ">=", "<>", "!=", "||");

    /** The index after an optional {@code .digits} and {@code E[+-]digits} from {@code i}; -1 if malformed. */
    private static int fractionAndExponent(String sql, int i) {
        int n = sql.length();
        if (i < n && sql.charAt(i) == '.') {
            i++;
            while (i < n && Character.isDigit(sql.charAt(i))) {
                i++;
            }
        }
        if (i < n && (sql.charAt(i) == 'E' || sql.charAt(i) == 'e')) {
            i++;
            if (i < n && (sql.charAt(i) == '+' || sql.charAt(i) == '-')) {
                i++;
            }
            int digits = i;
            while (i < n && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            if (i == digits) {
                return -1;
            }
        }
        return i;
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
