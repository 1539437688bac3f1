package io.kegdb.sql.calcite;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.SystemTableSource;
import io.kegdb.sql.TableInfo;
import io.kegdb.sql.catalog.Catalog;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Calcite schema tree of one catalog version: a schema per user schema, SYS and INFORMATION_SCHEMA. */
public final class CatalogSchema {

    public final Catalog.Snapshot snapshot;
    final CalciteSchema root;
    public final List<SystemTable> systemTables;
    private final InformationSchema informationSchema;

    public CatalogSchema(KvStore store, Catalog.Snapshot snapshot, List<SystemTableSource> extraSystemTables) {
        this.snapshot = snapshot;
        this.root = CalciteSchema.createRootSchema(false, false);
        SchemaPlus plus = root.plus();
        // The type names DDL takes that Calcite's parser does not know (CAST(x AS BOOL)).
        plus.add("BOOL", types -> types.createSqlType(SqlTypeName.BOOLEAN));
        snapshot.schemas().forEach((name, tables) -> {
            Map<String, Table> map = new LinkedHashMap<>();
            tables.forEach((t, def) -> map.put(t, new KvTable(def, store)));
            plus.add(name, new FixedSchema(map));
        });
        this.systemTables = SystemTable.all(store, snapshot, extraSystemTables);
        Map<String, Table> sys = new LinkedHashMap<>();
        systemTables.forEach(t -> sys.put(t.name, t));
        plus.add(Catalog.SYSTEM_SCHEMA, new FixedSchema(sys));
        this.informationSchema = new InformationSchema(snapshot, systemTables);
        Map<String, Table> views = new LinkedHashMap<>();
        informationSchema.views.forEach(t -> views.put(t.name, t));
        plus.add(Catalog.INFORMATION_SCHEMA, new FixedSchema(views));
    }

    /** Every table of this catalog version, system tables and INFORMATION_SCHEMA's views included. */
    public List<TableInfo> tables() {
        return informationSchema.tableInfos();
    }

    SchemaPlus plus() {
        return root.plus();
    }

    /** A schema whose tables are fixed when it is made. */
    private static final class FixedSchema extends AbstractSchema {
        private final Map<String, Table> tables;

        FixedSchema(Map<String, Table> tables) {
            this.tables = tables;
        }

        @Override
        protected Map<String, Table> getTableMap() {
            return tables;
        }
    }
}
