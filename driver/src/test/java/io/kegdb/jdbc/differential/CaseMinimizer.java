package io.kegdb.jdbc.differential;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shrinks a statement's data while KegDB and H2 still disagree on it: drops the tables the statement does not
 * name, then removes rows one at a time, keeping each removal after which the answers still differ. What is
 * left is a repro small enough to read.
 */
final class CaseMinimizer {

    private CaseMinimizer() {
    }

    /** The smallest tables found on which the query's answers still differ (the input if they no longer do). */
    static List<RandomTable> minimize(SelectGenerator.Query q, List<RandomTable> tables) throws SQLException {
        List<RandomTable> current = new ArrayList<>();
        for (RandomTable t : tables) {
            if (Pattern.compile("\\b" + t.name() + "\\b").matcher(q.sql()).find()) {
                current.add(t);
            }
        }
        if (!differs(q, current)) {
            return tables;
        }
        for (int t = 0; t < current.size(); t++) {
            for (int row = current.get(t).rows().size() - 1; row >= 0; row--) {
                RandomTable table = current.get(t);
                List<Object[]> fewer = new ArrayList<>(table.rows());
                fewer.remove(row);
                List<RandomTable> candidate = new ArrayList<>(current);
                candidate.set(t, new RandomTable(table.name(), table.keyType(), table.valueType(), List.copyOf(fewer)));
                if (differs(q, candidate)) {
                    current = candidate;
                }
            }
        }
        return current;
    }

    static boolean differs(SelectGenerator.Query q, List<RandomTable> tables) throws SQLException {
        try (DatabasePair pair = new DatabasePair(tables)) {
            return !pair.kegdb(q).agrees(pair.h2(q));
        }
    }
}
