package io.kegdb.sql.stats;

import io.kegdb.sql.direct.StatementText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Logs statements slower than a session's threshold at WARN, through the SLF4J logger {@value #LOGGER}: time,
 * rows, a one-line plan summary and the normalized text. The plan summary is normalized too (a plan may show
 * the literals it was bound to), and cut to 200 characters.
 */
public final class SlowStatementLog {

    /** The logger's name: a stable name to configure, whichever class logs. */
    public static final String LOGGER = "io.kegdb.sql.SlowStatements";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
    private static final int MAX_PLAN = 200;

    private SlowStatementLog() {
    }

    /** Logs one slow run of the statement known by {@code text}; {@code explain} is its plan's description. */
    public static void log(SqlMeters meters, String text, long elapsedNanos, long rows, String explain) {
        meters.slowStatement();
        if (!LOG.isWarnEnabled()) {
            return;
        }
        String plan = StatementText.normalize(explain.replace('\n', ' '));
        if (plan.length() > MAX_PLAN) {
            plan = plan.substring(0, MAX_PLAN) + "...";
        }
        LOG.warn("slow statement: {} ms, {} rows, plan {}: {}",
                String.format(Locale.ROOT, "%.1f", elapsedNanos / 1e6), rows, plan, text);
    }
}
