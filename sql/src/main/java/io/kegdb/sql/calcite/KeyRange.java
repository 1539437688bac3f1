package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;

/**
 * A set of keys a scan reads: one key ({@code lo == hi}, both inclusive), an interval with optional
 * bounds, or the keys starting with a prefix ({@code LIKE 'p%'}, {@code prefix} set, bound in {@code lo}).
 */
record KeyRange(KeyOperand lo, boolean loInclusive, KeyOperand hi, boolean hiInclusive, boolean prefix) {

    static KeyRange point(KeyOperand key) {
        return new KeyRange(key, true, key, true, false);
    }

    static KeyRange startingWith(KeyOperand prefix) {
        return new KeyRange(prefix, true, null, false, true);
    }

    boolean isPoint() {
        return lo != null && lo == hi;
    }

    @Override
    public String toString() {
        if (isPoint()) {
            return "=" + lo;
        }
        if (prefix) {
            return "prefix " + lo;
        }
        return (lo == null ? "(-inf" : (loInclusive ? "[" : "(") + lo) + ".."
                + (hi == null ? "+inf)" : hi + (hiInclusive ? "]" : ")"));
    }
}
