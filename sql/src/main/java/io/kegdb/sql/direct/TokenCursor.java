package io.kegdb.sql.direct;

import java.util.List;

/** Walks a token list for the hand-written parsers. */
final class TokenCursor {

    private final List<Lexer.Token> tokens;
    private int pos;

    TokenCursor(List<Lexer.Token> tokens) {
        this.tokens = tokens;
    }

    Lexer.Token peek() {
        return tokens.get(pos);
    }

    Lexer.Token next() {
        Lexer.Token t = tokens.get(pos);
        if (t.kind() != Lexer.Kind.END) {
            pos++;
        }
        return t;
    }

    boolean accept(String word) {
        if (peek().is(word)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean accept(char symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    /** True at the end, after optional semicolons. */
    boolean atEnd() {
        while (peek().isSymbol(';')) {
            pos++;
        }
        return peek().kind() == Lexer.Kind.END;
    }
}
