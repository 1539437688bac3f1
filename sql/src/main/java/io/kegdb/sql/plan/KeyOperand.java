package io.kegdb.sql.plan;

/**
 * A value a pushed-down predicate or limit needs: a literal (in internal form), or parameter {@code param}
 * read from the execution's context, so a plan serves every set of parameters.
 */
public record KeyOperand(Object literal, int param) {

    public static KeyOperand literal(Object value) {
        return new KeyOperand(value, -1);
    }

    public static KeyOperand param(int index) {
        return new KeyOperand(null, index);
    }

    public Object value(ExecutionContext ctx) {
        return param >= 0 ? ctx.param(param) : literal;
    }

    @Override
    public String toString() {
        return param >= 0 ? "?" + param : String.valueOf(literal);
    }
}
