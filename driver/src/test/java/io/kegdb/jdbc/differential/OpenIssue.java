package io.kegdb.jdbc.differential;

import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Defects KegDB is known to have today, each found by this test (and listed with a minimal reproduction where the
 * fixes are tracked). While one is open, the generator leaves out the shapes that reach it, or a failure whose
 * cause matches its pattern is counted and printed as known instead of failing the build. When its fix lands,
 * the constant goes, and the shapes it held back guard the fix from then on.
 *
 * <p>{@code -Dkegdb.differential.all=true} turns every shape on and lets every failure count (what a run for
 * the fixes should use); {@code -Dkegdb.differential.fixed=NAME,NAME} does it for the named ones only.
 */
enum OpenIssue {
    /**
     * Two output columns of one name behind a set operation: {@code SELECT k, k FROM t EXCEPT ... ORDER BY 1}
     * fails with 42000 "Column ... is ambiguous" (the plain {@code SELECT k, k ... ORDER BY k} is fixed).
     * Held back: {@code SELECT k, k ...} in set operations.
     */
    DUPLICATE_COLUMN_NAMES("^42000 .*Column '.*' is ambiguous"),
    /**
     * A Calcite rule fails on the statement and no plan is left without it: 0A000 "this statement cannot be
     * planned" naming the rule (AggregateReduceFunctionsRule on GROUP BY k with COUNT(DISTINCT k) and AVG(k) on a
     * DOUBLE key; EnumerableProjectRule with a CyclicMetadataException on an UPDATE whose WHERE ORs a key range
     * with a correlated IN sub-query).
     */
    PLANNER_RULE_ERRORS("^(HY000|0A000) .*(Error while applying rule|Decorrelation produced|cannot be planned \\(rules)"),
    /**
     * A multi-row VALUES into a DOUBLE column that mixes exponent literals (1.0E300), decimal literals and NULL:
     * 0A000 with a ClassCastException between BigDecimal and Double inside Calcite's conversion of the VALUES.
     */
    MIXED_APPROXIMATE_VALUES("^0A000 .*ClassCastException: class java\\.(math\\.BigDecimal|lang\\.Double) cannot be cast"),
    /** Planning that does not end within the query timeout (HYT00), or gives up (54001). */
    PLANNING_UNBOUNDED("^(HYT00|TIMEOUT|54001)");

    private final Pattern cause;

    OpenIssue(String cause) {
        this.cause = cause == null ? null : Pattern.compile(cause);
    }

    private static final boolean ALL = Boolean.getBoolean("kegdb.differential.all");
    private static final Set<String> FIXED = Arrays.stream(System.getProperty("kegdb.differential.fixed", "")
            .split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());

    /** Still open here: its shapes are held back and its failures are known. */
    boolean open() {
        return !ALL && !FIXED.contains(name());
    }

    /** The open issue KegDB's error (SQLState and message) is known to come from, or null. */
    static OpenIssue knownCause(String kegdbError) {
        if (kegdbError == null) {
            return null;
        }
        for (OpenIssue i : values()) {
            if (i.open() && i.cause != null && i.cause.matcher(kegdbError).find()) {
                return i;
            }
        }
        return null;
    }
}
