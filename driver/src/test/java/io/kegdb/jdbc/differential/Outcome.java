package io.kegdb.jdbc.differential;

import java.util.List;
import java.util.Map;

/**
 * What one database made of a {@link Case}: per statement its rows or update count (null where not compared),
 * and the rows of the tables the case writes, read after its end; or the error that stopped it.
 *
 * @param raw the written tables' rows as the driver returned them (to carry the agreed state on)
 */
record Outcome(List<Object> results, Map<String, List<List<Object>>> tables, Map<String, List<Object[]>> raw,
               String error) {

    static Outcome failed(String error, Map<String, List<List<Object>>> tables, Map<String, List<Object[]>> raw) {
        return new Outcome(List.of(), tables, raw, error);
    }

    boolean isError() {
        return error != null;
    }

    /** An internal error: never acceptable, whatever the oracles said. */
    boolean isInternalError() {
        return error != null && (error.startsWith("HY000") || error.startsWith("null ") || error.startsWith("raw "));
    }

    /** The same answers and the same rows after; or both an error and the same rows after (nothing written). */
    boolean agrees(Outcome other) {
        if (!sameTables(other)) {
            return false;
        }
        if (isError() || other.isError()) {
            return isError() && other.isError();
        }
        if (results.size() != other.results.size()) {
            return false;
        }
        for (int i = 0; i < results.size(); i++) {
            Object a = results.get(i);
            Object b = other.results.get(i);
            if (a instanceof List<?> x && b instanceof List<?> y) {
                if (!ResultRows.same(rows(x), rows(y))) {
                    return false;
                }
            } else if (a != null && b != null && !a.equals(b)) {
                return false;
            }
        }
        return true;
    }

    private boolean sameTables(Outcome other) {
        for (Map.Entry<String, List<List<Object>>> e : tables.entrySet()) {
            List<List<Object>> theirs = other.tables.get(e.getKey());
            if (theirs == null || !ResultRows.same(e.getValue(), theirs)) {
                return false;
            }
        }
        return tables.size() == other.tables.size();
    }

    @SuppressWarnings("unchecked")
    private static List<List<Object>> rows(List<?> x) {
        return (List<List<Object>>) x;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (error != null) {
            sb.append("error ").append(error.length() > 300 ? error.substring(0, 300) + "..." : error);
        }
        for (Object r : results) {
            sb.append(sb.length() > 0 ? "; " : "");
            sb.append(r instanceof List<?> x ? x.size() + " rows " + ResultRows.show(rows(x))
                    : r == null ? "done" : r + " rows written");
        }
        tables.forEach((name, rows) -> sb.append(sb.length() > 0 ? "; " : "").append(name).append(" after: ")
                .append(ResultRows.show(rows)));
        return sb.toString();
    }
}
