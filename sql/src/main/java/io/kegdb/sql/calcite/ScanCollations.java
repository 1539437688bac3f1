package io.kegdb.sql.calcite;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * The order of a {@link KvScan}'s or {@link KvLookupJoin}'s rows, as metadata tells it to the relations built
 * on them: their collation traits (key order ascending or descending, a top-N's order, the outer's order).
 * Calcite (calcite-core 1.42.0) answers a table scan's collations from the table's statistics instead, which
 * know no order, so a filter made over an ordered scan (by a rule, or by the field trimmer) had none, a limit
 * over that filter had none, and the planner sorted the rows the limit kept although they came in order.
 */
final class ScanCollations {

    private ScanCollations() {
    }

    /** {@code provider}, with the collation handler answering for KegDB's scans and lookup joins. */
    static MetadataHandlerProvider of(MetadataHandlerProvider provider) {
        return new MetadataHandlerProvider() {
            @Override
            public <MH extends MetadataHandler<?>> MH handler(Class<MH> handlerClass) {
                return answering(handlerClass, provider.handler(handlerClass));
            }

            @Override
            public <MH extends MetadataHandler<?>> MH revise(Class<MH> handlerClass) {
                return answering(handlerClass, provider.revise(handlerClass));
            }
        };
    }

    private static <MH> MH answering(Class<MH> type, MH handler) {
        if (type != BuiltInMetadata.Collation.Handler.class) {
            return handler;
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getName().equals("collations") && args != null && args.length == 2
                    && (args[0] instanceof KvScan || args[0] instanceof KvLookupJoin)) {
                return ImmutableList.copyOf(((RelNode) args[0]).getTraitSet().getTraits(RelCollationTraitDef.INSTANCE));
            }
            try {
                return method.invoke(handler, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
