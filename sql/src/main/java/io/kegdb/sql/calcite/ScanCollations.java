package io.kegdb.sql.calcite;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexOver;
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
 * over that filter had none, and the planner sorted the rows the limit kept although they came in order. A
 * statement with a window does without ({@link #safeFor}).
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

    /**
     * Whether the orders may be told for {@code tree}: not when it has a window. Calcite's window (calcite-core
     * 1.42.0) takes the order of the projection it comes from, but its enumerable form returns the rows grouped
     * by partition, so an ORDER BY above a window over an ordered scan was dropped.
     */
    static boolean safeFor(RelNode tree) {
        boolean[] windows = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof Window || node instanceof Project p && RexOver.containsOver(p.getProjects(), null)) {
                    windows[0] = true;
                } else {
                    super.visit(node, ordinal, parent);
                }
            }
        }.go(tree);
        return !windows[0];
    }

    private static <MH> MH answering(Class<MH> type, MH handler) {
        if (type != BuiltInMetadata.Collation.Handler.class) {
            return handler;
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getName().equals("collations") && args != null && args.length == 2) {
                if (args[0] instanceof KvScan || args[0] instanceof KvLookupJoin) {
                    return ImmutableList.copyOf(((RelNode) args[0]).getTraitSet()
                            .getTraits(RelCollationTraitDef.INSTANCE));
                }
            }
            try {
                return method.invoke(handler, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
