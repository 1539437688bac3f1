package io.kegdb.sql;

/**
 * A value a pushed-down predicate or limit needs: a literal (in internal form), or parameter {@code param}
 * read from the execution's context, so a plan serves every set of parameters.
 */
record KeyOperand(Object literal, int param) {

    static KeyOperand literal(Object value) {
        return new KeyOperand(value, -1);
    }

    static KeyOperand param(int index) {
        return new KeyOperand(null, index);
    }

    Object value(ExecutionContext ctx) {
        return param >= 0 ? ctx.param(param) : literal;
    }

    @Override
    public String toString() {
        return param >= 0 ? "?" + param : String.valueOf(literal);
    }
}
