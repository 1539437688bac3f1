package io.kegdb.sql.direct;

import java.util.List;

/**
 * The text a statement is known by in the slow-statement log and {@code SYS.STATEMENTS}: every string, number
 * and binary literal replaced by {@code ?}, comments dropped and white space squeezed to one blank, so that
 * statements differing only in their values share one text and no value is ever shown. (The plan cache's
 * {@link LiteralParameters} turns only the literals it can bind into parameters; this one takes them all.)
 */
public final class StatementText {

    /** What an unreadable text (an unterminated quote or comment) is shown as: its values could be anywhere. */
    public static final String UNREADABLE = "<statement not readable: unterminated quote or comment>";

    private StatementText() {
    }

    /** {@code sql} with every literal as {@code ?}. */
    public static String normalize(String sql) {
        List<Lexer.Token> tokens = Lexer.allTokens(sql);
        if (tokens == null) {
            return UNREADABLE;
        }
        StringBuilder out = new StringBuilder(sql.length());
        Lexer.Token previous = null;
        for (Lexer.Token t : tokens) {
            if (t.kind() == Lexer.Kind.END) {
                break;
            }
            if (previous != null && previous.end() < t.position()) {
                out.append(' ');
            }
            switch (t.kind()) {
                case STRING, NUMBER, BINARY -> out.append('?');
                default -> out.append(sql, t.position(), t.end());
            }
            previous = t;
        }
        return out.toString();
    }
}
