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
    ; // none open today: planning is bounded (its timeouts and 54001 now fail the build like any other error)

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
