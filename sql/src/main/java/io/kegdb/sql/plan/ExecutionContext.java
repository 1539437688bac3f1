package io.kegdb.sql.plan;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.txn.Overlay;
import io.kegdb.sql.txn.ReadView;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Everything one execution of a statement sees: its parameters, what it reads (the session's view) and
 * where it writes (a statement overlay, null for queries). Calcite's generated code reads parameters and
 * stashed plan objects through {@link #get(String)}.
 */
public final class ExecutionContext implements DataContext {

    private final SchemaPlus rootSchema;
    private final JavaTypeFactory typeFactory;
    private final List<Object> params;
    private final Map<String, Object> stash;
    private final ReadView view;
    private final Overlay writes;
    private final Deadline deadline;
    private final long now = System.currentTimeMillis();
    private final AtomicBoolean cancel = new AtomicBoolean();

    public ExecutionContext(SchemaPlus rootSchema, JavaTypeFactory typeFactory, List<Object> params,
                     Map<String, Object> stash, ReadView view, Overlay writes, Deadline deadline) {
        this.rootSchema = rootSchema;
        this.typeFactory = typeFactory;
        this.params = params;
        this.stash = stash;
        this.view = view;
        this.writes = writes;
        this.deadline = deadline;
    }

    /** Called for every row read from a table or written: stops a statement past its deadline. */
    public void checkRow() {
        StatementFailure.checkRow(deadline);
    }

    public ReadView view() {
        return view;
    }

    /** The statement's overlay; fails if the statement was prepared as a query. */
    public Overlay writes() throws SqlError {
        if (writes == null) {
            throw new SqlError(SqlState.READ_ONLY_TRANSACTION, "this statement cannot write");
        }
        return writes;
    }

    Object param(int index) {
        return params.get(index);
    }

    @Override
    public SchemaPlus getRootSchema() {
        return rootSchema;
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
        return typeFactory;
    }

    @Override
    public QueryProvider getQueryProvider() {
        return null;
    }

    @Override
    public Object get(String name) {
        if (!name.isEmpty() && name.charAt(0) == '?') {
            return params.get(parameterIndex(name));
        }
        TimeZone zone = TimeZone.getDefault();
        if (name.equals(Variable.UTC_TIMESTAMP.camelName) || name.equals(Variable.SYS_TIMESTAMP.camelName)) {
            return now;
        }
        if (name.equals(Variable.CURRENT_TIMESTAMP.camelName) || name.equals(Variable.LOCAL_TIMESTAMP.camelName)) {
            return now + zone.getOffset(now);
        }
        if (name.equals(Variable.TIME_ZONE.camelName)) {
            return zone;
        }
        if (name.equals(Variable.LOCALE.camelName)) {
            return Locale.getDefault();
        }
        if (name.equals(Variable.CANCEL_FLAG.camelName)) {
            return cancel;
        }
        if (name.equals(Variable.USER.camelName) || name.equals(Variable.SYSTEM_USER.camelName)) {
            return "SA";
        }
        return stash.get(name);
    }

    /**
     * The n of a parameter's name {@code ?n}, read in place: generated code asks for a parameter at every row
     * its filter tests, where a substring and Integer.parseInt were a quarter of a filtered scan's time.
     */
    private static int parameterIndex(String name) {
        int n = 0;
        for (int i = 1; i < name.length(); i++) {
            int digit = name.charAt(i) - '0';
            if (digit < 0 || digit > 9 || i > 9) {
                throw new IllegalArgumentException("not a parameter name: " + name);
            }
            n = n * 10 + digit;
        }
        if (name.length() < 2) {
            throw new IllegalArgumentException("not a parameter name: " + name);
        }
        return n;
    }
}
