package io.kegdb.sql.direct;

import io.kegdb.sql.ColumnInfo;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A statement text with its literals turned into parameters where that cannot change what it means, so
 * statements that differ only in those literals share one plan. Only literals compared with a column in a
 * condition are taken: {@code col op lit} and {@code lit op col} ({@code = <> != < <= > >=}),
 * {@code col [NOT] BETWEEN lit AND lit}, {@code col [NOT] IN (lit, ...)}, {@code col [NOT] LIKE 'text'}, each
 * standing alone between {@code WHERE/ON/HAVING/AND/OR/NOT/(} and the end of the condition; and the whole
 * numbers of {@code LIMIT}, {@code OFFSET} and {@code FETCH}. Literals in the select list, GROUP BY and
 * ORDER BY ordinals, NULL, booleans and typed literals ({@code DATE '...'}) stay as they are.
 *
 * <p>Whether a literal may be bound to the parameter that replaced it depends on the type the planner gives
 * that parameter; {@link #bind} checks it for each statement, so one that does not fit is planned as written.
 *
 * @param text  the statement with {@code ?} in place of each taken literal
 * @param slots what each parameter of {@code text} is, in order: a parameter of the original text or a literal
 */
public record LiteralParameters(String text, List<Slot> slots) {

    /** A parameter of the normalized text: the original text's parameter {@code param}, or {@code literal}. */
    public record Slot(int param, Literal literal) {
    }

    /** A literal taken from the text: a quoted string, a number (sign included) or a binary string. */
    public record Literal(Lexer.Kind kind, String text) {

        /**
         * The value to bind for a parameter of type {@code type} when it means exactly what the literal meant
         * there, else null: strings for VARCHAR no longer than its precision (not CHAR, which pads, and not
         * with trailing blanks, which CHAR comparisons ignore), whole numbers in range for integer types,
         * numbers within precision and scale for DECIMAL, any number for DOUBLE, binary strings for VARBINARY.
         */
        Object valueFor(ColumnInfo type) {
            switch (kind) {
                case STRING:
                    boolean fits = type.typeName().equals("VARCHAR")
                            && (type.precision() <= 0 || text.length() <= type.precision())
                            && !text.endsWith(" ");
                    return fits ? text : null;
                case BINARY:
                    return type.typeName().equals("VARBINARY")
                            && (type.precision() <= 0 || text.length() / 2 <= type.precision()) ? Lexer.hex(text) : null;
                case NUMBER:
                    return number(type);
                default:
                    return null;
            }
        }

        private Object number(ColumnInfo type) {
            if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
                return null; // an approximate literal: DOUBLE arithmetic where a parameter may be exact
            }
            BigDecimal d = new BigDecimal(text);
            try {
                return switch (type.typeName()) {
                    case "BIGINT" -> d.longValueExact();
                    case "INTEGER" -> d.intValueExact();
                    case "SMALLINT" -> (int) d.shortValueExact();
                    case "TINYINT" -> (int) d.byteValueExact();
                    case "DECIMAL" -> Math.max(d.scale(), 0) <= type.scale()
                            && d.precision() - d.scale() <= type.precision() - type.scale() ? d : null;
                    case "DOUBLE" -> d.doubleValue();
                    default -> null;
                };
            } catch (ArithmeticException e) {
                return null;
            }
        }
    }

    /** Words that may come right before a condition. */
    private static final Set<String> CONDITION_START = Set.of("WHERE", "ON", "HAVING", "AND", "OR", "NOT");
    /** Words that may come right after a condition. */
    private static final Set<String> CONDITION_END = Set.of("AND", "OR", "ORDER", "GROUP", "HAVING", "LIMIT",
            "OFFSET", "FETCH", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "MINUS", "JOIN", "INNER", "LEFT", "RIGHT",
            "FULL", "CROSS", "NATURAL", "WHERE");
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");

    /** The text with its literals as parameters, or null if no literal can be taken. */
    public static LiteralParameters of(String sql) {
        return of(sql, Lexer.allTokens(sql));
    }

    /** Like {@link #of(String)} with the text's {@link Lexer#allTokens} {@code t} (null: no literal taken). */
    public static LiteralParameters of(String sql, List<Lexer.Token> t) {
        if (t == null) {
            return null;
        }
        // Literals taken, by token index of their first token; a negative number spans two tokens.
        Literal[] taken = new Literal[t.size()];
        int[] spans = new int[t.size()];
        boolean any = false;
        for (int i = 0; i < t.size(); i++) {
            Lexer.Token tok = t.get(i);
            if (tok.kind() == Lexer.Kind.WORD && (tok.is("LIMIT") || tok.is("OFFSET"))
                    || tok.is("FIRST") || tok.is("NEXT")) {
                any |= takeRowCount(t, i + 1, taken, spans);
                continue;
            }
            if (tok.kind() != Lexer.Kind.SYMBOL && !tok.is("BETWEEN") && !tok.is("IN") && !tok.is("LIKE")) {
                continue;
            }
            if (COMPARISONS.contains(tok.text())) {
                int nameStart = nameBefore(t, i - 1);
                int lit = literalLength(t, i + 1);
                if (nameStart >= 0 && conditionStart(t, nameStart - 1) && lit > 0 && conditionEnd(t, i + 1 + lit)) {
                    any |= take(t, i + 1, lit, taken, spans);
                    continue;
                }
                int litStart = literalStartBefore(t, i - 1);
                int nameEnd = nameAfter(t, i + 1);
                if (litStart >= 0 && conditionStart(t, litStart - 1) && nameEnd >= 0 && conditionEnd(t, nameEnd)) {
                    any |= take(t, litStart, i - litStart, taken, spans);
                }
                continue;
            }
            int nameStart = nameBefore(t, t.get(i - 1 < 0 ? 0 : i - 1).is("NOT") ? i - 2 : i - 1);
            if (i == 0 || nameStart < 0 || !conditionStart(t, nameStart - 1)) {
                continue;
            }
            if (tok.is("BETWEEN")) {
                int a = literalLength(t, i + 1);
                int b = a > 0 && t.get(i + 1 + a).is("AND") ? literalLength(t, i + 2 + a) : 0;
                if (b > 0 && conditionEnd(t, i + 2 + a + b)) {
                    take(t, i + 1, a, taken, spans);
                    any |= take(t, i + 2 + a, b, taken, spans);
                }
            } else if (tok.is("LIKE")) {
                if (t.get(i + 1).kind() == Lexer.Kind.STRING && conditionEnd(t, i + 2)) {
                    any |= take(t, i + 1, 1, taken, spans);
                }
            } else if (tok.is("IN") && t.get(i + 1).isSymbol('(')) {
                any |= takeInList(t, i + 2, taken, spans);
            }
        }
        if (!any) {
            return null;
        }
        StringBuilder text = new StringBuilder(sql.length());
        List<Slot> slots = new ArrayList<>();
        int copied = 0;
        int params = 0;
        for (int i = 0; i < t.size(); i++) {
            if (taken[i] != null) {
                text.append(sql, copied, t.get(i).position()).append('?');
                copied = t.get(i + spans[i] - 1).end();
                slots.add(new Slot(-1, taken[i]));
                i += spans[i] - 1;
            } else if (t.get(i).kind() == Lexer.Kind.PARAM) {
                slots.add(new Slot(params++, null));
            }
        }
        text.append(sql, copied, sql.length());
        return new LiteralParameters(text.toString(), List.copyOf(slots));
    }

    /**
     * The values for the normalized text's parameters given the original text's {@code params}, or null if
     * a literal does not fit the type the plan gave its parameter ({@code types}, one per slot).
     */
    public List<Object> bind(List<ColumnInfo> types, List<?> params) {
        List<Object> out = new ArrayList<>(slots.size());
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get(i);
            if (s.literal() == null) {
                out.add(s.param() < params.size() ? params.get(s.param()) : null);
                continue;
            }
            Object v = s.literal().valueFor(types.get(i));
            if (v == null) {
                return null;
            }
            out.add(v);
        }
        return out;
    }

    /** True if every literal fits the type the plan gave its parameter. */
    public boolean fits(List<ColumnInfo> types) {
        return types.size() == slots.size() && bind(types, List.of()) != null;
    }

    /** Parameters of the original text. */
    public int originalParameterCount() {
        return (int) slots.stream().filter(s -> s.literal() == null).count();
    }

    private static boolean take(List<Lexer.Token> t, int at, int span, Literal[] taken, int[] spans) {
        String text = span == 2 ? "-" + t.get(at + 1).text() : t.get(at).text();
        taken[at] = new Literal(t.get(at + span - 1).kind(), text);
        spans[at] = span;
        return true;
    }

    /** {@code LIMIT n}, {@code OFFSET n}, {@code FETCH FIRST n}: a whole number ends the clause's count. */
    private static boolean takeRowCount(List<Lexer.Token> t, int at, Literal[] taken, int[] spans) {
        Lexer.Token n = t.get(at);
        if (n.kind() != Lexer.Kind.NUMBER || !n.text().chars().allMatch(Character::isDigit) || n.text().length() > 9) {
            return false;
        }
        Lexer.Token after = t.get(at + 1);
        if (after.kind() == Lexer.Kind.SYMBOL && !after.isSymbol(')') && !after.isSymbol(';')) {
            return false; // an expression, or LIMIT start, count
        }
        return take(t, at, 1, taken, spans);
    }

    /** {@code (lit, lit, ...)} of one kind from {@code at}, followed by the end of the condition. */
    private static boolean takeInList(List<Lexer.Token> t, int at, Literal[] taken, int[] spans) {
        List<int[]> items = new ArrayList<>();
        Lexer.Kind kind = null;
        int i = at;
        while (true) {
            int len = literalLength(t, i);
            Lexer.Kind k = len > 0 ? t.get(i + len - 1).kind() : null;
            if (len == 0 || (kind != null && k != kind)) {
                return false;
            }
            kind = k;
            items.add(new int[] {i, len});
            i += len;
            if (t.get(i).isSymbol(')')) {
                break;
            }
            if (!t.get(i).isSymbol(',')) {
                return false;
            }
            i++;
        }
        if (!conditionEnd(t, i + 1)) {
            return false;
        }
        for (int[] item : items) {
            take(t, item[0], item[1], taken, spans);
        }
        return true;
    }

    /** Tokens of a literal at {@code at}: 1 (string, number, binary), 2 (minus and a number), 0 if none. */
    private static int literalLength(List<Lexer.Token> t, int at) {
        if (at >= t.size()) {
            return 0;
        }
        Lexer.Kind k = t.get(at).kind();
        if (k == Lexer.Kind.STRING || k == Lexer.Kind.NUMBER || k == Lexer.Kind.BINARY) {
            return 1;
        }
        return t.get(at).isSymbol('-') && at + 1 < t.size() && t.get(at + 1).kind() == Lexer.Kind.NUMBER ? 2 : 0;
    }

    /** The first token of a literal ending at {@code last}, or -1. */
    private static int literalStartBefore(List<Lexer.Token> t, int last) {
        if (last < 0) {
            return -1;
        }
        Lexer.Kind k = t.get(last).kind();
        if (k == Lexer.Kind.STRING || k == Lexer.Kind.BINARY) {
            return last;
        }
        if (k != Lexer.Kind.NUMBER) {
            return -1;
        }
        return last > 0 && t.get(last - 1).isSymbol('-') ? last - 1 : last;
    }

    /** The first token of a column name {@code a.b.c} ending at {@code last}, or -1. */
    private static int nameBefore(List<Lexer.Token> t, int last) {
        if (last < 0 || !isName(t.get(last))) {
            return -1;
        }
        int i = last;
        while (i >= 2 && t.get(i - 1).isSymbol('.') && isName(t.get(i - 2))) {
            i -= 2;
        }
        return i;
    }

    /** The index after a column name starting at {@code first}, or -1. */
    private static int nameAfter(List<Lexer.Token> t, int first) {
        if (first >= t.size() || !isName(t.get(first))) {
            return -1;
        }
        int i = first + 1;
        while (i + 1 < t.size() && t.get(i).isSymbol('.') && isName(t.get(i + 1))) {
            i += 2;
        }
        return i;
    }

    /** A column name, not a word that is a value or an operator of its own. */
    private static boolean isName(Lexer.Token tok) {
        return tok.kind() == Lexer.Kind.QUOTED || tok.kind() == Lexer.Kind.WORD && !NOT_NAMES.contains(tok.text());
    }

    private static final Set<String> NOT_NAMES = Set.of("NULL", "TRUE", "FALSE", "UNKNOWN", "NOT", "AND", "OR",
            "WHERE", "ON", "HAVING", "SELECT", "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "ALL", "ANY",
            "SOME", "EXISTS", "INTERVAL", "DATE", "TIME", "TIMESTAMP", "IS", "CURRENT_DATE", "CURRENT_TIME",
            "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "USER", "CURRENT_USER", "SESSION_USER",
            "SYSTEM_USER", "CURRENT_ROLE", "CURRENT_PATH", "CURRENT_CATALOG", "CURRENT_SCHEMA");

    /** True if a condition may start right after token {@code at}. */
    private static boolean conditionStart(List<Lexer.Token> t, int at) {
        if (at < 0) {
            return false;
        }
        Lexer.Token tok = t.get(at);
        if (tok.kind() == Lexer.Kind.WORD) {
            return CONDITION_START.contains(tok.text());
        }
        // A parenthesis around conditions, not one holding a function's arguments or a list.
        return tok.isSymbol('(') && conditionStart(t, at - 1);
    }

    /** True if a condition may end right before token {@code at}. */
    private static boolean conditionEnd(List<Lexer.Token> t, int at) {
        Lexer.Token tok = t.get(at);
        return switch (tok.kind()) {
            case END -> true;
            case WORD -> CONDITION_END.contains(tok.text());
            case SYMBOL -> tok.isSymbol(')') || tok.isSymbol(';');
            default -> false;
        };
    }
}
