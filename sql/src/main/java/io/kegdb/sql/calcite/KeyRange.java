package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;

/**
 * A set of keys a scan reads: one key ({@code lo == hi}, both inclusive), an interval with optional
 * bounds, or the keys starting with a prefix ({@code LIKE 'p%'}, {@code prefix} set, bound in {@code lo});
 * with {@code pattern} set, {@code lo} is a LIKE pattern (a parameter) whose literal start is the prefix.
 */
record KeyRange(KeyOperand lo, boolean loInclusive, KeyOperand hi, boolean hiInclusive, boolean prefix,
                boolean pattern) {

    KeyRange(KeyOperand lo, boolean loInclusive, KeyOperand hi, boolean hiInclusive) {
        this(lo, loInclusive, hi, hiInclusive, false, false);
    }

    static KeyRange point(KeyOperand key) {
        return new KeyRange(key, true, key, true);
    }

    static KeyRange startingWith(KeyOperand prefix) {
        return new KeyRange(prefix, true, null, false, true, false);
    }

    /** The keys starting with the literal start of the LIKE pattern {@code pattern} (before any wildcard). */
    static KeyRange startingWithLiteralStartOf(KeyOperand pattern) {
        return new KeyRange(pattern, true, null, false, true, true);
    }

    /** The text of a LIKE pattern before its first wildcard or escape character. */
    static String literalStart(String pattern) {
        int end = 0;
        while (end < pattern.length() && "%_\\".indexOf(pattern.charAt(end)) < 0) {
            end++;
        }
        return pattern.substring(0, end);
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
            return (pattern ? "prefix of pattern " : "prefix ") + lo;
        }
        return (lo == null ? "(-inf" : (loInclusive ? "[" : "(") + lo) + ".."
                + (hi == null ? "+inf)" : hi + (hiInclusive ? "]" : ")"));
    }
}
