package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.CyclicMetadataException;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * Metadata questions that come back to a question already being answered get a neutral answer instead of an
 * error. When the cost-based optimizer merges two sets of equivalent relations, a relation may come to read
 * its own set; Calcite (calcite-core 1.42.0) asks for a set's row count and pulled-up predicates through the
 * relations of the set, meets the same set again and throws a CyclicMetadataException out of costing, which
 * failed the rule being applied: {@code UPDATE t1 SET v = v + 1 WHERE t1.v NOT IN (SELECT s.k FROM t2 s WHERE
 * s.k <= t1.k)} was refused with 0A000. Only a relation on the cycle gets the neutral answer, and such a
 * relation is no plan (it reads itself): predicates are none (always sound: the planner only loses a
 * simplification) and the row count is large, {@link #CYCLE_ROW_COUNT}, Calcite's own estimate for a set it
 * cannot count, so that nothing on the cycle looks cheap.
 */
final class CyclicMetadata {

    private CyclicMetadata() {
    }

    /** {@code provider}, with the row count and predicates handlers answering neutrally on a cycle. */
    static MetadataHandlerProvider tolerant(MetadataHandlerProvider provider) {
        return new MetadataHandlerProvider() {
            @Override
            public <MH extends MetadataHandler<?>> MH handler(Class<MH> handlerClass) {
                return tolerant(handlerClass, provider.handler(handlerClass));
            }

            @Override
            public <MH extends MetadataHandler<?>> MH revise(Class<MH> handlerClass) {
                return tolerant(handlerClass, provider.revise(handlerClass));
            }
        };
    }

    /** The row count a relation on a cycle is given. */
    static final double CYCLE_ROW_COUNT = 1e6;

    private static <MH> MH tolerant(Class<MH> type, MH handler) {
        Object neutral = type == BuiltInMetadata.Predicates.Handler.class ? RelOptPredicateList.EMPTY
                : type == BuiltInMetadata.RowCount.Handler.class ? (Object) CYCLE_ROW_COUNT : null;
        if (neutral == null) {
            return handler;
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            try {
                return method.invoke(handler, args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof CyclicMetadataException && method.getDeclaringClass() == type) {
                    return neutral;
                }
                throw e.getCause();
            }
        }));
    }
}
