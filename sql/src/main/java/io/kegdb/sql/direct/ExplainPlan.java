package io.kegdb.sql.direct;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.plan.EnumeratorResult;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.WrappingPlan;
import org.apache.calcite.linq4j.Linq4j;

import java.sql.Types;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code EXPLAIN PLAN FOR statement}: one row, column PLAN, describing how the statement runs. */
public final class ExplainPlan extends WrappingPlan {

    private static final Pattern PREFIX = Pattern.compile("(?is)^\\s*EXPLAIN\\s+PLAN\\s+FOR\\s+(.*)$");
    private static final List<ColumnInfo> COLUMNS =
            List.of(new ColumnInfo("PLAN", Types.VARCHAR, "VARCHAR", 0, 0, false, "", ""));

    public ExplainPlan(Plan inner) {
        super(inner);
    }

    /** The statement being explained, or null if {@code sql} is not an EXPLAIN. */
    public static String explained(String sql) {
        int start = 0;
        while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        if (!sql.regionMatches(true, start, "EXPLAIN", 0, 7)) { // cheap test (no copy) before the regex
            return null;
        }
        Matcher m = PREFIX.matcher(sql);
        return m.matches() ? m.group(1) : null;
    }



    @Override
    public boolean isQuery() {
        return true;
    }


    @Override
    public List<ColumnInfo> columns() {
        return COLUMNS;
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) {
        return new EnumeratorResult(COLUMNS, Linq4j.singletonEnumerator(new Object[] {inner.explain()}), maxRows);
    }
}
