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
     * SUM of INTEGER keeps INTEGER and wraps, as does SUM OVER; INTEGER and BIGINT arithmetic wrap instead of
     * raising 22003. Held back: the INTEGER and BIGINT extremes in the data.
     */
    INTEGER_OVERFLOW_WRAPS(null),
    /**
     * AVG of an exact number (INTEGER, BIGINT, DECIMAL) keeps the argument's scale and truncates (-14 for -14.5);
     * both oracles give the exact or double mean. Held back: AVG of exact numbers, also over a window.
     */
    AVG_OF_INTEGERS_TRUNCATED(null),
    /**
     * DECIMAL's common type with BIGINT-sized numbers is capped at DECIMAL(19, s): comparisons and joins of a
     * BIGINT with a DECIMAL fail with 22003 "cannot be represented as a DECIMAL(19, s)", or lose the scale.
     * Held back: literals of another number type than the column's, and set operations of two number types
     * (a UNION of {@code DECIMAL(6,6) * 8} with a BIGINT drops the fraction).
     */
    DECIMAL_COMMON_TYPE("^22003 Value .* cannot be represented as a DECIMAL\\(19, \\d+\\)"),
    /** COALESCE(v, ...) in a predicate lets NULL rows through (its result is cast NOT NULL). Held back: COALESCE in predicates. */
    COALESCE_PREDICATE_NULLS(null),
    /**
     * ORDER BY ... DESC with LIMIT / FETCH FIRST above a sub-query or join takes the first rows of the ascending
     * stream. Held back: DESC with a limit over sub-queries and joins.
     */
    DESC_LIMIT_OVER_JOIN(null),
    /**
     * A sub-query predicate OR-ed with another predicate loses rows: {@code v IN (SELECT ...) OR EXISTS (SELECT 1
     * FROM non_empty)} drops rows the EXISTS alone keeps. Held back: sub-queries under OR.
     */
    OR_WITH_SUBQUERY(null),
    /**
     * An uncorrelated [NOT] EXISTS beside a correlated scalar sub-query is misjudged (EXISTS over an empty table
     * keeps the rows, NOT EXISTS drops them). Held back: that shape.
     */
    EXISTS_BESIDE_CORRELATED_SCALAR(null),
    /**
     * An upsert whose DO UPDATE expression is wider than the column ({@code SET v = EXCLUDED.v * 10} on a DECIMAL):
     * HY000 "Conversion to relational algebra failed to preserve datatypes".
     */
    UPSERT_EXPRESSION_TYPE("^HY000 .*failed to preserve datatypes"),
    /** A sub-query correlated on the outer value column: HY000 (IndexOutOfBounds, "Required columns ... not subset"). */
    VALUE_CORRELATION(null),
    /** Two output columns of one name: 42000 "Column ... is ambiguous". Held back: {@code SELECT k, k ...}. */
    DUPLICATE_COLUMN_NAMES("^42000 .*Column '.*' is ambiguous"),
    /** The planner fails with a rule's internal error (HY000 "Error while applying rule ..."). */
    PLANNER_RULE_ERRORS("^HY000 .*(Error while applying rule|Decorrelation produced)"),
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
