package io.kegdb.sql;

import io.kegdb.sql.plan.Plan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Calcite plans by schema and statement text, least recently used dropped first; stale versions are misses,
 * and so are plans whose tables' sizes moved by an order of magnitude ({@link Plan#outdated()}).
 * A text may also be remembered as one that cannot be planned with its literals as parameters.
 */
final class PlanCache {

    /** A cached plan, or (plan null) the mark that the text cannot be planned, for one catalog version. */
    record Entry(Plan plan, long catalogVersion) {
    }

    private final int capacity;
    private final Map<String, Entry> plans;

    PlanCache(int capacity) {
        this.capacity = capacity;
        this.plans = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    static String key(String schema, String sql) {
        return schema + '\u0000' + sql;
    }

    /** The entry for {@code key} made for {@code catalogVersion} and not outdated by table sizes, or null. */
    Entry get(String key, long catalogVersion) {
        Entry e;
        synchronized (this) {
            e = plans.get(key);
        }
        // Outside the lock: finding a plan outdated may count its tables' keys.
        return e != null && e.catalogVersion() == catalogVersion && (e.plan() == null || !e.plan().outdated())
                ? e : null;
    }

    synchronized void put(String key, Plan plan) {
        plans.put(key, new Entry(plan, plan.catalogVersion()));
    }

    synchronized void putUnplannable(String key, long catalogVersion) {
        plans.put(key, new Entry(null, catalogVersion));
    }

    synchronized int size() {
        return plans.size();
    }
}
