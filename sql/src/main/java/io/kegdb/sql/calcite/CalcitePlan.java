package io.kegdb.sql.calcite;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.plan.CountResult;
import io.kegdb.sql.plan.EnumeratorResult;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.txn.Overlay;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A statement planned and compiled by Calcite; each execution only binds a fresh context. */
public final class CalcitePlan implements Plan {

    private final CatalogSchema schema;
    private final JavaTypeFactory typeFactory;
    private final boolean query;
    private final List<ColumnInfo> parameters;
    private final List<SqlTypeName> parameterTypes = new ArrayList<>();
    private final List<ColumnInfo> columns;
    private final Bindable<?> bindable;
    private final Map<String, Object> stash;
    private final String explain;
    private final TableSizes sizes;
    private volatile SqlError constantFailure;

    CalcitePlan(CatalogSchema schema, JavaTypeFactory typeFactory, boolean query, List<ColumnInfo> parameters,
                RelDataType parameterRow, List<ColumnInfo> columns, Bindable<?> bindable, Map<String, Object> stash,
                String explain, TableSizes sizes) {
        this.schema = schema;
        this.typeFactory = typeFactory;
        this.query = query;
        this.parameters = List.copyOf(parameters);
        parameterRow.getFieldList().forEach(f -> parameterTypes.add(f.getType().getSqlTypeName()));
        this.columns = List.copyOf(columns);
        this.bindable = bindable;
        this.stash = Map.copyOf(stash);
        this.explain = explain;
        this.sizes = sizes;
    }

    @Override
    public long catalogVersion() {
        return schema.snapshot.version();
    }

    @Override
    public boolean outdated() {
        return sizes.outdated();
    }

    @Override
    public boolean isQuery() {
        return query;
    }

    @Override
    public List<ColumnInfo> parameters() {
        return parameters;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public String explain() {
        return explain;
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        List<Object> bound = bind(params);
        Overlay writes = query ? null : session.beginWrite();
        ExecutionContext ctx = new ExecutionContext(schema.plus(), typeFactory, bound, stash, session.view(), writes,
                deadline);
        try {
            Enumerable<?> result = bindable.bind(ctx);
            if (query) {
                return new EnumeratorResult(columns, result.enumerator(), maxRows);
            }
            long count = 0;
            try (Enumerator<?> e = result.enumerator()) {
                if (e.moveNext()) {
                    Object row = e.current();
                    count = ((Number) (row instanceof Object[] a ? a[0] : row)).longValue();
                }
            }
            session.finishWrite(writes);
            return new CountResult(count);
        } catch (ExceptionInInitializerError e) {
            // A constant of the generated code failed (e.g. 1/0): its class stays unusable, so every later
            // execution reports the same error instead of a bare NoClassDefFoundError.
            SqlError error = SqlErrors.translate(e);
            constantFailure = error;
            throw error;
        } catch (NoClassDefFoundError e) {
            SqlError first = constantFailure;
            throw first != null ? new SqlError(first.sqlState(), first.getMessage(), e) : SqlErrors.translate(e);
        } catch (RuntimeException | AssertionError | StackOverflowError | LinkageError e) {
            throw SqlErrors.translate(e);
        }
    }

    private List<Object> bind(List<?> params) throws SqlError {
        if (params.size() != parameterTypes.size()) {
            throw new SqlError(SqlState.PARAMETER_MISSING, "statement has " + parameterTypes.size() + " parameters, "
                    + params.size() + " given");
        }
        List<Object> out = new ArrayList<>(params.size());
        for (int i = 0; i < params.size(); i++) {
            out.add(internal(params.get(i), parameterTypes.get(i), i));
        }
        return out;
    }

    /** A bound value in the representation Calcite's generated code expects for the parameter's type. */
    static Object internal(Object v, SqlTypeName type, int index) throws SqlError {
        if (v == null) {
            return null;
        }
        try {
            switch (type) {
                case CHAR, VARCHAR:
                    return v instanceof byte[] ? bad(v, type, index) : v.toString();
                case BIGINT:
                    return ColumnType.BIGINT.coerce(v, "?" + (index + 1));
                case INTEGER:
                    return ColumnType.INTEGER.coerce(v, "?" + (index + 1));
                case SMALLINT:
                    return v instanceof String s ? Short.valueOf(s.trim()) : ((Number) v).shortValue();
                case TINYINT:
                    return v instanceof String s ? Byte.valueOf(s.trim()) : ((Number) v).byteValue();
                case DOUBLE, FLOAT:
                    return v instanceof String s ? Double.valueOf(s.trim()) : ((Number) v).doubleValue();
                case REAL:
                    return v instanceof String s ? Float.valueOf(s.trim()) : ((Number) v).floatValue();
                case DECIMAL:
                    return v instanceof BigDecimal ? v : new BigDecimal(v.toString().trim());
                case BOOLEAN:
                    return v instanceof Boolean ? v : v instanceof String s ? Boolean.valueOf(s.trim()) : bad(v, type, index);
                case BINARY, VARBINARY:
                    return ColumnType.VARBINARY.coerce(v, "?" + (index + 1));
                case DATE:
                    // The driver sends dates and times as their ISO text.
                    return ColumnType.DATE.coerce(v, "?" + (index + 1));
                case TIME:
                    return v instanceof LocalTime t ? (int) (t.toNanoOfDay() / 1_000_000L) : v;
                case TIMESTAMP:
                    return ColumnType.TIMESTAMP.coerce(v, "?" + (index + 1));
                default:
                    return v instanceof byte[] b ? new ByteString(b) : v;
            }
        } catch (ClassCastException | NumberFormatException e) {
            return bad(v, type, index);
        }
    }

    private static Object bad(Object v, SqlTypeName type, int index) throws SqlError {
        throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, "parameter " + (index + 1) + ": cannot convert a "
                + v.getClass().getSimpleName() + " to " + type);
    }
}
