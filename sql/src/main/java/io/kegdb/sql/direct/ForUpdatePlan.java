package io.kegdb.sql.direct;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.WrappingPlan;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code SELECT ... FOR UPDATE}: the SELECT without the clause, run so that in a transaction the rows it
 * reads are checked at commit at every isolation level (optimistic: no row is locked, a commit that finds
 * one of them changed fails with 40001). Neither Calcite nor the key/value fast path sees the clause.
 */
public final class ForUpdatePlan extends WrappingPlan {

    /** A query ending in FOR UPDATE (optionally OF columns, NOWAIT or SKIP LOCKED are refused by Calcite). */
    private static final Pattern SUFFIX = Pattern.compile("(?is)^(\\s*(?:SELECT|WITH)\\b.*?)\\s+FOR\\s+UPDATE\\s*;?\\s*$");

    public ForUpdatePlan(Plan inner) {
        super(inner);
    }

    /** The query without its FOR UPDATE clause, or null if {@code sql} has none. */
    public static String locking(String sql) {
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
            end--;
        }
        if (end < 6 || !sql.regionMatches(true, end - 6, "UPDATE", 0, 6)) { // cheap test before the regex
            return null;
        }
        Matcher m = SUFFIX.matcher(sql);
        return m.matches() ? m.group(1) : null;
    }






    @Override
    public String explain() {
        return inner.explain() + " (FOR UPDATE: rows read are checked at commit)";
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (!inner.isQuery()) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "FOR UPDATE applies to a SELECT only");
        }
        session.readForUpdate(true);
        try {
            return inner.execute(session, params, maxRows, deadline);
        } finally {
            session.readForUpdate(false);
        }
    }
}
