package io.kegdb.sql;

import io.kegdb.sql.plan.Plan;

import java.util.LinkedHashMap;
import java.util.Map;

/** Calcite plans by schema and statement text, least recently used dropped first; stale versions are misses. */
final class PlanCache {

    private final int capacity;
    private final Map<String, Plan> plans;

    PlanCache(int capacity) {
        this.capacity = capacity;
        this.plans = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Plan> eldest) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    static String key(String schema, String sql) {
        return schema + '\u0000' + sql;
    }

    synchronized Plan get(String key, long catalogVersion) {
        Plan p = plans.get(key);
        return p != null && p.catalogVersion() == catalogVersion ? p : null;
    }

    synchronized void put(String key, Plan plan) {
        plans.put(key, plan);
    }

    synchronized int size() {
        return plans.size();
    }
}
