package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;
import io.kegdb.sql.calcite.CalcitePlanner;
import io.kegdb.sql.calcite.CatalogSchema;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.direct.BackupPlan;
import io.kegdb.sql.direct.BoundLiteralsPlan;
import io.kegdb.sql.direct.DdlPlan;
import io.kegdb.sql.direct.ExplainPlan;
import io.kegdb.sql.direct.ForUpdatePlan;
import io.kegdb.sql.direct.KeyValuePlan;
import io.kegdb.sql.direct.Lexer;
import io.kegdb.sql.direct.LiteralParameters;
import io.kegdb.sql.direct.MergePlan;
import io.kegdb.sql.direct.MergeRewrite;
import io.kegdb.sql.direct.UpsertRewrite;
import io.kegdb.sql.direct.UserPlan;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.stats.SqlMeters;
import io.kegdb.sql.stats.StatementStatistics;
import io.kegdb.sql.stats.StatementsTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/** {@link SqlDatabase} over one store: the catalog, the Calcite schema of its current version, the plan cache. */
final class KegDatabase implements SqlDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(KegDatabase.class);
    private static final int PLAN_CACHE_SIZE = 2048;
    /** A statement naming the catalog's own views, which answer from the catalog this process knows. */
    private static final Pattern CATALOG_VIEWS = Pattern.compile("(?i)\\b(SYS|INFORMATION_SCHEMA)\\s*\\.");

    static {
        // Before any Calcite class reads them: string literals and columns are Unicode, where Calcite's
        // default (ISO-8859-1) would reject non-Latin-1 literals. Settings made by the application win.
        for (String p : new String[] {"calcite.default.charset", "calcite.default.nationalcharset"}) {
            if (System.getProperty(p) == null) {
                System.setProperty(p, "UTF-8");
            }
        }
        if (System.getProperty("calcite.default.collation.name") == null) {
            System.setProperty("calcite.default.collation.name", "UTF-8$en_US");
        }
    }

    private final KvStore store;
    private final Catalog catalog;
    private final List<SystemTableSource> extraSystemTables;
    /** Made for the first statement Calcite plans: opening a database and a connection loads no Calcite. */
    private volatile CalcitePlanner planner;
    private final PlanCache plans = new PlanCache(PLAN_CACHE_SIZE);
    private final AtomicLong plansCompiled = new AtomicLong();
    private volatile CatalogSchema schema;
    private volatile boolean closed;
    private final StatementStatistics statements;
    private final SqlMeters meters;
    /** Runs the user statements; null where there are no users. */
    private final UserAdministration users;

    private KegDatabase(KvStore store, Catalog catalog, List<SystemTableSource> extraSystemTables,
                        StatementStatistics statements, UserAdministration users) {
        this.store = store;
        this.users = users;
        this.catalog = catalog;
        this.statements = statements;
        this.meters = new SqlMeters(statements);
        List<SystemTableSource> all = new ArrayList<>(extraSystemTables);
        all.add(new StatementsTable(statements));
        this.extraSystemTables = List.copyOf(all);
    }

    static KegDatabase open(KvStore store, DatabaseOptions options) throws SqlError {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        Set<String> names = new HashSet<>(Catalog.BUILT_IN_SYSTEM_TABLES);
        names.add(StatementsTable.NAME);
        for (SystemTableSource t : options.systemTables()) {
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("system table SYS." + t.name() + " is defined twice");
            }
            if (t.columns().size() < 2) {
                throw new IllegalArgumentException("system table SYS." + t.name() + " needs at least two columns");
            }
        }
        try {
            return new KegDatabase(store, Catalog.open(store, options.sharedCatalog()), options.systemTables(),
                    new StatementStatistics(options.statementCapacity()), options.users());
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    Catalog catalog() {
        return catalog;
    }

    /** The Calcite schema of the catalog's current version, rebuilt after DDL. */
    CatalogSchema schema() {
        Catalog.Snapshot snapshot = catalog.snapshot();
        CatalogSchema s = schema;
        if (s == null || s.snapshot != snapshot) {
            synchronized (this) {
                s = schema;
                if (s == null || s.snapshot != snapshot) {
                    s = new CatalogSchema(store, snapshot, extraSystemTables);
                    schema = s;
                }
            }
        }
        return s;
    }

    Plan plan(String sql, String defaultSchema) throws SqlError {
        return plan(sql, defaultSchema, Deadline.none());
    }

    /**
     * The plan for {@code sql} in {@code defaultSchema}: DDL, the key/value fast path, or Calcite's (cached);
     * Calcite's planning stops with HYT00 at {@code deadline}.
     */
    Plan plan(String sql, String defaultSchema, Deadline deadline) throws SqlError {
        checkOpen();
        // No read of a shared catalog's version here: a statement learns of another process's DDL from its own
        // reads and writes, which carry the version (KegSession, CatalogCheckedView). The catalog's views read
        // no rows that would tell, so a statement naming them re-reads a shared catalog first (one read).
        if (catalog.shared() && (CATALOG_VIEWS.matcher(sql).find() || Catalog.SYSTEM_SCHEMA.equals(defaultSchema)
                || Catalog.INFORMATION_SCHEMA.equals(defaultSchema))) {
            catalog.refresh();
        }
        String explained = ExplainPlan.explained(sql);
        if (explained != null) {
            return new ExplainPlan(plan(explained, defaultSchema, deadline));
        }
        String locking = ForUpdatePlan.locking(sql);
        if (locking != null) {
            return new ForUpdatePlan(plan(locking, defaultSchema, deadline));
        }
        Catalog.Snapshot snapshot = catalog.snapshot();
        String upsert = UpsertRewrite.rewrite(sql, snapshot, defaultSchema);
        if (upsert != null) {
            return plan(upsert, defaultSchema, deadline);
        }
        String merge = MergeRewrite.rewrite(sql, snapshot, defaultSchema);
        if (merge != null) {
            return new MergePlan(plan(merge, defaultSchema, deadline));
        }
        List<Lexer.Token> allTokens = Lexer.allTokens(sql);
        List<Lexer.Token> tokens = Lexer.subset(allTokens);
        if (tokens != null && UserPlan.isUserStatement(tokens)) {
            return UserPlan.parse(tokens, defaultSchema, users);
        }
        if (tokens != null && DdlPlan.isDdl(tokens)) {
            return DdlPlan.parse(tokens, defaultSchema);
        }
        if (tokens != null && BackupPlan.isBackup(tokens)) {
            return BackupPlan.parse(tokens);
        }
        // Key/value shapes are recognized from the tokens each time (about a microsecond), so statements
        // with literals never crowd Calcite's plans out of the cache.
        Plan plan = tokens == null ? null : KeyValuePlan.match(tokens, snapshot, defaultSchema);
        if (plan != null) {
            return plan;
        }
        LiteralParameters literals = LiteralParameters.of(sql, allTokens);
        if (literals != null) {
            plan = sharedPlan(literals, snapshot.version(), defaultSchema, deadline);
            if (plan != null) {
                return plan;
            }
        }
        return cachedPlan(sql, snapshot.version(), defaultSchema, deadline);
    }

    /**
     * The plan of the text with its literals as parameters, bound to this statement's literals; null if that
     * text cannot be planned or a literal does not fit the type its parameter got (then the statement is
     * planned as written).
     */
    private Plan sharedPlan(LiteralParameters literals, long version, String defaultSchema, Deadline deadline)
            throws SqlError {
        String key = PlanCache.key(defaultSchema, literals.text());
        PlanCache.Entry entry = plans.get(key, version);
        Plan shared;
        if (entry != null) {
            meters.planCacheHit();
            shared = entry.plan();
        } else {
            meters.planCacheMiss();
            try {
                shared = compile(literals.text(), defaultSchema, deadline);
                plans.put(key, shared);
            } catch (SqlError e) {
                if (e.sqlState().equals("HYT00")) {
                    throw e;
                }
                // e.g. a parameter where Calcite cannot type one: the statement as written tells its own error
                LOG.debug("planning {} with its literals as parameters failed", literals.text(), e);
                plans.putUnplannable(key, version);
                shared = null;
            }
        }
        return shared == null ? null : BoundLiteralsPlan.bind(shared, literals);
    }

    private Plan cachedPlan(String sql, long version, String defaultSchema, Deadline deadline) throws SqlError {
        String key = PlanCache.key(defaultSchema, sql);
        PlanCache.Entry entry = plans.get(key, version);
        if (entry != null && entry.plan() != null) {
            meters.planCacheHit();
            return entry.plan();
        }
        meters.planCacheMiss();
        Plan plan = compile(sql, defaultSchema, deadline);
        plans.put(key, plan);
        return plan;
    }

    private Plan compile(String sql, String defaultSchema, Deadline deadline) throws SqlError {
        plansCompiled.incrementAndGet();
        return planner().plan(sql, schema(), defaultSchema, deadline);
    }

    private CalcitePlanner planner() {
        CalcitePlanner p = planner;
        if (p == null) {
            synchronized (this) {
                p = planner;
                if (p == null) {
                    p = new CalcitePlanner(meters.planning());
                    planner = p;
                }
            }
        }
        return p;
    }

    /** Statements Calcite has planned since the database opened (plan cache misses). */
    long plansCompiled() {
        return plansCompiled.get();
    }

    /** True if the schema exists (SYS, INFORMATION_SCHEMA, PUBLIC, or one holding tables). */
    boolean hasSchema(String name) {
        return Catalog.SYSTEM_SCHEMA.equals(name) || Catalog.INFORMATION_SCHEMA.equals(name)
                || catalog.snapshot().schemas().containsKey(name);
    }

    void checkOpen() throws SqlError {
        if (closed) {
            throw new SqlError(SqlState.CONNECTION_DOES_NOT_EXIST, "the database is closed");
        }
    }

    @Override
    public SqlSession newSession() {
        return new KegSession(this);
    }

    @Override
    public String defaultSchema() {
        return Catalog.DEFAULT_SCHEMA;
    }

    @Override
    public List<String> schemas() {
        refreshQuietly();
        List<String> out = new ArrayList<>(catalog.snapshot().schemas().keySet());
        out.add(Catalog.SYSTEM_SCHEMA);
        out.add(Catalog.INFORMATION_SCHEMA);
        out.sort(null);
        return out;
    }

    @Override
    public List<TableInfo> tables() {
        refreshQuietly();
        return schema().tables();
    }

    /** Metadata is best effort: when the store cannot be read, the catalog this process knows is listed. */
    private void refreshQuietly() {
        try {
            catalog.refresh();
        } catch (SqlError | RuntimeException e) {
            LOG.debug("listing the catalog known to this process; re-reading it failed", e);
        }
    }

    @Override
    public KvStore store() {
        return store;
    }

    SqlMeters sqlMeters() {
        return meters;
    }

    StatementStatistics statementStatistics() {
        return statements;
    }

    @Override
    public List<Meter> meters() {
        List<Meter> all = new ArrayList<>(store.meters());
        all.addAll(meters.meters());
        all.add(Meter.gauge("kegdb.sql.statement.texts", MeterUnit.NONE,
                "Statement texts SYS.STATEMENTS holds now.", statements::size));
        return List.copyOf(all);
    }

    @Override
    public void resetStatementStatistics() {
        statements.reset();
    }

    @Override
    public void close() {
        closed = true;
    }
}
