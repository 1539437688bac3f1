package io.kegdb.sql.calcite;

import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.SegmentStats;
import io.kegdb.engine.StoreStats;
import io.kegdb.sql.SystemTableSource;
import io.kegdb.sql.catalog.Catalog;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** A read-only table of schema SYS or INFORMATION_SCHEMA whose rows are computed when it is scanned. */
public final class SystemTable extends AbstractTable implements ScannableTable {

    public record Column(String name, SqlTypeName type, int jdbcType, boolean nullable) {
        Column(String name, SqlTypeName type, int jdbcType) {
            this(name, type, jdbcType, false);
        }
    }

    public final String name;
    public final List<Column> columns;
    private final Supplier<List<Object[]>> rows;

    private SystemTable(String name, List<Column> columns, Supplier<List<Object[]>> rows) {
        this.name = name;
        this.columns = columns;
        this.rows = rows;
    }

    /** A table of {@code schema} whose rows, checked against the columns, come from {@code rows}. */
    static SystemTable of(String schema, String name, List<Column> columns, Supplier<List<Object[]>> rows) {
        return new SystemTable(name, List.copyOf(columns), () -> {
            List<Object[]> out = rows.get();
            for (Object[] row : out) {
                check(schema + "." + name, columns, row);
            }
            return out;
        });
    }

    /** SYS.TABLES, SYS.SEGMENTS and SYS.STATS over {@code store} and the catalog {@code snapshot}. */
    static List<SystemTable> all(KvStore store, Catalog.Snapshot snapshot, List<SystemTableSource> extra) {
        List<SystemTable> all = new ArrayList<>(builtIn(store, snapshot));
        for (SystemTableSource source : extra) {
            all.add(of(source));
        }
        return List.copyOf(all);
    }

    private static List<SystemTable> builtIn(KvStore store, Catalog.Snapshot snapshot) {
        Column[] tables = {
            text("TABLE_SCHEMA"), text("TABLE_NAME"), number("TABLE_ID"), text("KEY_COLUMN"), text("KEY_TYPE"),
            text("VALUE_COLUMN"), text("VALUE_TYPE")};
        Column[] segments = {
            number("ID"), number("BYTES"), number("LIVE_BYTES"), number("DEAD_BYTES"),
            new Column("ACTIVE", SqlTypeName.BOOLEAN, Types.BOOLEAN)};
        Column[] stats = {text("NAME"), number("VALUE")};
        return List.of(
                new SystemTable("TABLES", List.of(tables), () -> {
                    List<Object[]> out = new ArrayList<>();
                    snapshot.schemas().values().forEach(m -> m.values().forEach(t -> out.add(new Object[] {
                        t.schema(), t.name(), (long) t.id(), t.keyColumn(), t.keyDeclaration(),
                        t.valueColumn(), t.valueDeclaration()})));
                    return out;
                }),
                new SystemTable("SEGMENTS", List.of(segments), () -> {
                    List<Object[]> out = new ArrayList<>();
                    List<SegmentStats> all = store.stats() instanceof BitcaskStats b ? b.segmentStats() : List.of();
                    for (SegmentStats s : all) {
                        out.add(new Object[] {s.id(), s.bytes(), s.liveBytes(), s.deadBytes(), s.active()});
                    }
                    return out;
                }),
                new SystemTable("STATS", List.of(stats), () -> {
                    // A store without segments (the in-memory one) has no garbage, merges or keydir: 0 each.
                    StoreStats any = store.stats();
                    BitcaskStats s = any instanceof BitcaskStats b ? b
                            : new BitcaskStats(any.keys(), 0, any.liveBytes(), 0, 0, 0, List.of());
                    return List.of(
                            new Object[] {"keys", s.keys()},
                            new Object[] {"segments", (long) s.segments()},
                            new Object[] {"live_bytes", s.liveBytes()},
                            new Object[] {"dead_bytes", s.deadBytes()},
                            new Object[] {"merges", s.merges()},
                            new Object[] {"keydir_bytes", s.keydirBytes()});
                }));
    }

    /** A table whose columns and rows come from {@code source}; rows are checked against the columns. */
    static SystemTable of(SystemTableSource source) {
        List<Column> columns = new ArrayList<>();
        for (SystemTableSource.Column c : source.columns()) {
            columns.add(switch (c.kind()) {
                case VARCHAR -> new Column(c.name(), SqlTypeName.VARCHAR, Types.VARCHAR, c.nullable());
                case BIGINT -> new Column(c.name(), SqlTypeName.BIGINT, Types.BIGINT, c.nullable());
                case BOOLEAN -> new Column(c.name(), SqlTypeName.BOOLEAN, Types.BOOLEAN, c.nullable());
            });
        }
        return of(Catalog.SYSTEM_SCHEMA, source.name(), columns, source::rows);
    }

    /** A row of the wrong shape would surface as a ClassCastException deep in generated code: name it here. */
    private static void check(String table, List<Column> columns, Object[] row) {
        if (row.length != columns.size()) {
            throw new IllegalStateException(table + " produced a row of " + row.length + " values for "
                    + columns.size() + " columns");
        }
        for (int i = 0; i < row.length; i++) {
            Column c = columns.get(i);
            Class<?> expected = switch (c.type()) {
                case BIGINT -> Long.class;
                case BOOLEAN -> Boolean.class;
                default -> String.class;
            };
            if (row[i] == null ? !c.nullable() : !expected.isInstance(row[i])) {
                throw new IllegalStateException(table + " produced " + row[i] + " for column " + c.name()
                        + " (" + c.type() + (c.nullable() ? "" : " NOT NULL") + ")");
            }
        }
    }

    private static Column text(String name) {
        return new Column(name, SqlTypeName.VARCHAR, Types.VARCHAR);
    }

    private static Column number(String name) {
        return new Column(name, SqlTypeName.BIGINT, Types.BIGINT);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (Column c : columns) {
            b.add(c.name(), typeFactory.createTypeWithNullability(typeFactory.createSqlType(c.type()), c.nullable()));
        }
        return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows.get());
    }
}
