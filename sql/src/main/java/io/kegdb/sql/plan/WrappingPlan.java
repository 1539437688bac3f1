package io.kegdb.sql.plan;

import io.kegdb.sql.ColumnInfo;

import java.util.List;

/**
 * A plan that runs another one its own way (EXPLAIN, FOR UPDATE, bound literals): whatever it does not
 * override it answers as the plan it wraps, so a wrapped plan goes stale, and is made again, with it.
 */
public abstract class WrappingPlan implements Plan {

    protected final Plan inner;

    protected WrappingPlan(Plan inner) {
        this.inner = inner;
    }

    @Override
    public long catalogVersion() {
        return inner.catalogVersion();
    }

    @Override
    public boolean outdated() {
        return inner.outdated();
    }

    @Override
    public boolean isQuery() {
        return inner.isQuery();
    }

    @Override
    public List<ColumnInfo> parameters() {
        return inner.parameters();
    }

    @Override
    public List<ColumnInfo> columns() {
        return inner.columns();
    }

    @Override
    public String explain() {
        return inner.explain();
    }
}
