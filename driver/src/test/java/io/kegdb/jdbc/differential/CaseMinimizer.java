package io.kegdb.jdbc.differential;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shrinks a failing case while KegDB still fails it the same way (same {@link Referee.Verdict#cause}): drops the
 * tables the case does not name, then removes rows, halves first and single rows last, keeping each removal
 * after which the failure stays; then, for a one-statement case, cuts its predicates down (an AND or OR to one
 * side, a NOT dropped, a LIMIT or OFFSET dropped) the same way. What is left is a reproduction small enough to read.
 */
final class CaseMinimizer {

    private CaseMinimizer() {
    }

    /** The smallest tables found on which the case still fails the same way (the input if it no longer does). */
    static List<RandomTable> minimize(Case c, List<RandomTable> tables, DatabaseSet.Store store, Path scratch,
                                      String cause) throws SQLException {
        List<RandomTable> current = new ArrayList<>();
        for (RandomTable t : tables) {
            if (Pattern.compile("\\b" + t.name() + "\\b").matcher(c.toString()).find()) {
                current.add(t);
            }
        }
        if (!fails(c, current, store, scratch, cause)) {
            return tables;
        }
        for (int t = 0; t < current.size(); t++) {
            for (int chunk = Math.max(1, current.get(t).rows().size() / 2); chunk >= 1; chunk /= 2) {
                for (int start = current.get(t).rows().size() - chunk; start >= 0; start -= chunk) {
                    RandomTable table = current.get(t);
                    List<Object[]> fewer = new ArrayList<>(table.rows());
                    fewer.subList(start, Math.min(start + chunk, fewer.size())).clear();
                    List<RandomTable> candidate = new ArrayList<>(current);
                    candidate.set(t, table.withRows(fewer));
                    if (fails(c, candidate, store, scratch, cause)) {
                        current = candidate;
                    }
                }
            }
        }
        return current;
    }

    /** The case with its one statement cut down as far as it still fails the same way (the case itself if not). */
    static Case shrink(Case c, List<RandomTable> tables, DatabaseSet.Store store, Path scratch, String cause)
            throws SQLException {
        if (c.steps().size() != 1 || !c.steps().get(0).h2().equals(c.steps().get(0).kegdb())) {
            return c; // an upsert is spelt differently per database: not cut
        }
        Case current = c;
        boolean progress = true;
        for (int rounds = 0; progress && rounds < 30; rounds++) {
            progress = false;
            for (String smaller : cuts(current.steps().get(0).kegdb())) {
                Case.Step s = current.steps().get(0);
                Case.Step step = new Case.Step(smaller, Dialect.H2.spell(smaller),
                        s.sqlite() == null ? null : Dialect.SQLITE.spell(smaller), s.query(), s.ordered(), s.counted());
                Case candidate = new Case(c.form(), List.of(step), c.end(), c.writes());
                if (fails(candidate, tables, store, scratch, cause)) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }

    /** Statements one cut smaller: each AND/OR inside parentheses or after WHERE to either side, NOT dropped, LIMIT dropped. */
    static List<String> cuts(String sql) {
        List<String> out = new ArrayList<>();
        for (String junk : List.of("NOT ", " OFFSET \\d+", " LIMIT \\d+", " FETCH FIRST \\d+ ROWS ONLY")) {
            java.util.regex.Matcher m = Pattern.compile(junk).matcher(sql);
            while (m.find()) {
                out.add(sql.substring(0, m.start()) + sql.substring(m.end()));
            }
        }
        // operands of a top-level AND/OR within each parenthesised group, and within each WHERE ... clause
        for (int open = 0; open < sql.length(); open++) {
            boolean paren = sql.charAt(open) == '(';
            boolean where = sql.startsWith(" WHERE ", open);
            if (!paren && !where) {
                continue;
            }
            int from = paren ? open + 1 : open + 7;
            int depth = 0;
            List<Integer> ops = new ArrayList<>();
            List<Integer> opLengths = new ArrayList<>();
            int end = sql.length();
            for (int i = from; i < sql.length(); i++) {
                char ch = sql.charAt(i);
                if (ch == '\'') {
                    i = sql.indexOf('\'', i + 1);
                    if (i < 0) {
                        return out;
                    }
                    continue;
                }
                if (ch == '(') {
                    depth++;
                } else if (ch == ')') {
                    if (depth == 0) {
                        end = i;
                        break;
                    }
                    depth--;
                } else if (depth == 0 && !paren && (sql.startsWith(" ORDER BY", i) || sql.startsWith(" GROUP BY", i)
                        || sql.startsWith(" UNION", i) || sql.startsWith(" EXCEPT", i) || sql.startsWith(" INTERSECT", i))) {
                    end = i;
                    break;
                } else if (depth == 0 && (sql.startsWith(" AND ", i) || sql.startsWith(" OR ", i))) {
                    if (!sql.substring(Math.max(from, i - 30), i).matches(".*BETWEEN [^ ]+$")) {
                        ops.add(i);
                        opLengths.add(sql.startsWith(" AND ", i) ? 5 : 4);
                    }
                }
            }
            for (int j = 0; j < ops.size(); j++) {
                int at = ops.get(j);
                int start = j == 0 ? from : ops.get(j - 1) + opLengths.get(j - 1);
                int stop = j + 1 < ops.size() ? ops.get(j + 1) : end;
                // drop the operand before the operator, or the one after
                out.add(sql.substring(0, start) + sql.substring(at + opLengths.get(j)));
                out.add(sql.substring(0, at) + sql.substring(stop));
            }
        }
        return out;
    }

    static boolean fails(Case c, List<RandomTable> tables, DatabaseSet.Store store, Path scratch, String cause)
            throws SQLException {
        try (DatabaseSet set = new DatabaseSet(tables, store, scratch)) {
            Referee.Verdict v = Referee.judge(set, c);
            return v.kind() == Referee.Kind.MISMATCH && v.cause().equals(cause);
        }
    }
}
