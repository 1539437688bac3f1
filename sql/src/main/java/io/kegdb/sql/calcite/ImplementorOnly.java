package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;

import java.util.List;
import java.util.function.Supplier;

/**
 * What the generated code asks of an aggregate function KegDB implements itself (a {@code SqlUserDefinedAggFunction}
 * of {@link ExactSums} or {@link Variances}): its implementor. Such a function is known by its operator, which
 * types it by its return type inference, never by a schema's parameters.
 */
record ImplementorOnly(Supplier<AggImplementor> implementor) implements ImplementableAggFunction {

    @Override
    public AggImplementor getImplementor(boolean windowContext) {
        return implementor.get();
    }

    @Override
    public List<FunctionParameter> getParameters() {
        throw new UnsupportedOperationException("known by its operator, never resolved by parameters");
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        throw new UnsupportedOperationException("typed by its operator's return type inference");
    }
}
