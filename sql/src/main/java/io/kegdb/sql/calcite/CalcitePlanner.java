package io.kegdb.sql.calcite;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.stats.PlanningTimes;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.ConvertToChecked;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Plans a statement with Calcite: parse, validate, convert to relational algebra, push key conditions,
 * projections, order and limits into {@link KvScan}s, optimize to enumerable code and compile it once.
 */
public final class CalcitePlanner {

    private static final Logger LOG = LoggerFactory.getLogger(CalcitePlanner.class);

    static final SqlParser.Config PARSER = SqlParser.config().withConformance(SqlConformanceEnum.LENIENT);

    private final JavaTypeFactory typeFactory = new KegTypeFactory();
    private final PlanningTimes times;
    private final PlanCompiler compiler;

    /** @param times where each planning's phases are added up */
    public CalcitePlanner(PlanningTimes times) {
        this(times, PlanCompiler.JANINO);
    }

    CalcitePlanner(PlanningTimes times, PlanCompiler compiler) {
        this.times = times;
        this.compiler = compiler;
    }

    JavaTypeFactory typeFactory() {
        return typeFactory;
    }

    /**
     * Plans {@code sql}. A Calcite rule that fails with an internal error on the statement (calcite-core 1.42.0
     * has rules that do on some shapes: a type mismatch in AggregateReduceFunctionsRule, an assertion in
     * ProjectMergeRule) is named and left out of the next try, at most {@link #MAX_SKIPPED_RULES} of them;
     * the optimizations left give a correct plan. A statement that still cannot be planned fails with 0A000
     * naming what failed.
     */
    public CalcitePlan plan(String sql, CatalogSchema schema, String defaultSchema, Deadline deadline) throws SqlError {
        Set<RelOptRule> skipped = new LinkedHashSet<>();
        Throwable firstFailure = null;
        while (true) {
            PlanningBudget budget = new PlanningBudget(deadline);
            PlanningPhases phases = new PlanningPhases(times);
            times.planned();
            try {
                return plan(sql, schema, defaultSchema, deadline, budget, skipped, phases);
            } catch (SqlError e) {
                phases.mark("failed");
                throw e;
            } catch (Exception | AssertionError | StackOverflowError | LinkageError e) {
                phases.mark("failed");
                SqlError error = SqlErrors.translate(e);
                boolean internal = error.sqlState().equals(SqlState.GENERAL_ERROR);
                if (!internal && !(firstFailure != null && e instanceof RelOptPlanner.CannotPlanException)) {
                    throw error; // about the statement (or its deadline), not a rule's failure
                }
                firstFailure = firstFailure == null ? e : firstFailure;
                RelOptRule rule = internal ? budget.failingRule() : null;
                if (rule == null || skipped.size() >= MAX_SKIPPED_RULES || !skipped.add(rule)) {
                    throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, "this statement cannot be planned"
                            + (skipped.isEmpty() ? "" : " (rules that failed on it: " + skipped + ")") + ": "
                            + rootMessage(firstFailure), firstFailure);
                }
                LOG.debug("rule {} failed planning, planning again without it: {}", rule, sql, e);
            }
        }
    }

    /** How many failing rules one statement may have left out before it is refused. */
    static final int MAX_SKIPPED_RULES = 4;

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = String.valueOf(root.getMessage());
        int nl = m.indexOf('\n');
        return root.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
    }

    private CalcitePlan plan(String sql, CatalogSchema schema, String defaultSchema, Deadline deadline,
                             PlanningBudget budget, Set<RelOptRule> skipped, PlanningPhases phases)
            throws Exception {
        deadline.check();
        SqlNode parsed = SqlParser.create(sql, PARSER).parseStmt();
        phases.mark("parse");
        checkRowCounts(parsed);
        EmptyLikeEscape.removeFrom(parsed);
        OrdinalLiterals.rewrite(parsed);
        List<String> shownNames = RepeatedSortColumns.resolveIn(parsed);
        ValuesLiterals.beforeConversion(parsed);
        FunctionLibrary.respell(parsed);
        boolean upsert = parsed instanceof SqlInsert insert && insert.isUpsert();
        boolean query = parsed.getKind().belongsTo(SqlKind.QUERY);
        if (!query && !parsed.getKind().belongsTo(SqlKind.DML)) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "unsupported statement: " + parsed.getKind());
        }
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        CalciteCatalogReader reader = new CalciteCatalogReader(schema.root, List.of(defaultSchema), typeFactory,
                new CalciteConnectionConfigImpl(props));
        SqlValidator validator = SqlValidatorUtil.newValidator(FunctionLibrary.operatorTable(), reader,
                typeFactory, SqlValidator.Config.DEFAULT.withConformance(SqlConformanceEnum.LENIENT)
                        .withIdentifierExpansion(true).withTypeCoercionFactory(StoreAssignment.Coercion::new));
        SqlNode validated = validate(validator, parsed);
        phases.mark("validate");
        deadline.check();
        if (!query && touchesSystemSchema(reader, validated)) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "tables of schema SYS are read-only");
        }
        RelDataType paramType = parameterRowType(validator, validated);
        RelDataType resultType = validator.getValidatedNodeType(validated);
        List<ColumnInfo> columns = query ? columns(resultType, validator.getFieldOrigins(validated), shownNames)
                : List.of();
        List<ColumnInfo> params = columns(paramType, null, null);

        VolcanoPlanner planner = new VolcanoPlanner(Contexts.chain(budget.context(),
                Contexts.of(new PlannerRules.Skipped(skipped))));
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
        planner.addRule(KvModifyRule.create(upsert));
        planner.setExecutor(RexUtil.EXECUTOR);
        planner.addListener(budget);
        RelOptCluster cluster = RelOptCluster.create(planner, new RexBuilder(typeFactory));
        // Metadata (row counts, costs, uniqueness) through reflective proxies over the cluster's current
        // providers, not Calcite's default handlers generated and compiled with Janino: compiling those
        // cost a fresh JVM's first planned statement about 120 ms (cold start of kegdb bench sql).
        // A predicates question on a cycle of the plan space is answered "none" (CyclicMetadata); KegDB's
        // scans and lookup joins tell their order from their traits (ScanCollations).
        boolean[] ordersTold = {false};
        cluster.setMetadataQuerySupplier(() -> new RelMetadataQuery(budget.guard(CyclicMetadata.tolerant(
                ordersTold[0] ? ScanCollations.of(new ProxyingMetadataHandlerProvider(cluster.getMetadataProvider()))
                        : new ProxyingMetadataHandlerProvider(cluster.getMetadataProvider())))));
        phases.mark("planner");
        SqlToRelConverter converter = new StoreAssignment.Converter(
                (rowType, queryString, schemaPath, viewPath) -> {
                    throw new UnsupportedOperationException("views are not supported");
                },
                validator, reader, cluster, KegConvertletTable.INSTANCE,
                SqlToRelConverter.config().withTrimUnusedFields(false).withExpand(false)
                        // IN lists stay OR/SEARCH conditions (multi-get) instead of joins with VALUES.
                        .withInSubQueryThreshold(Integer.MAX_VALUE));
        RelRoot root = converter.convertQuery(validated, false, true);
        // Exact arithmetic that overflows its type fails (22003) instead of wrapping, as Calcite's own
        // prepare does for conformances that ask for it, and so do ABS and ROUND of an integer
        // (CheckedIntegerFunctions); VALUES literals take their column's type (ValuesLiterals).
        root = root.withRel(ValuesLiterals.apply(CheckedIntegerFunctions.apply(
                new ConvertToChecked(cluster.getRexBuilder(), true).visit(root.rel), cluster.getRexBuilder())));
        TableSizes sizes = TableSizes.of(root.rel);
        ordersTold[0] = ScanCollations.safeFor(root.rel);
        cluster.invalidateMetadataQuery();
        phases.mark("sql-to-rel");
        deadline.check();
        Program program = PlannerRules.sequence(phases.timed("join-conditions",
                // Conditions move into joins and across their key equalities (kv.k = ? AND kv.k = o.k
                // gives o.k = ?), so each side's key condition reaches its scan below.
                PlannerRules.hep(List.of(PlannerRules.FILTER_INTO_JOIN, PlannerRules.JOIN_CONDITION_PUSH,
                        JoinKeyConditionRule.LEFT_TO_RIGHT, JoinKeyConditionRule.RIGHT_TO_LEFT))),
                phases.timed("kv-rules", PlannerRules.hep(List.of(KvFilterRule.INSTANCE, KvProjectRule.DIRECT,
                        KvProjectRule.THROUGH_FILTER, KvSortRule.DIRECT, KvSortRule.THROUGH_PROJECT,
                        KvSortRule.THROUGH_FILTER, KvSortRule.THROUGH_PROJECT_FILTER, KvTopNRule.DIRECT,
                        KvTopNRule.THROUGH_PROJECT, KvAggregateRule.INSTANCE, KvAggregateRule.MIN_MAX,
                        KvAggregateRule.MIN_MAX_THROUGH_PROJECT, KvCountRule.INSTANCE,
                        KvAggregateScanRule.DIRECT, KvAggregateScanRule.THROUGH_PROJECT,
                        PlannerRules.LIMIT_BELOW_PROJECTION))),
                // Calcite's Volcano phase registers its root twice, and fails, when the root already has
                // the required traits (a whole statement answered by one KvCount): an identity projection
                // goes above it, which Volcano removes again.
                (p, rel, traits, materializations, lattices) -> rel.getTraitSet().equals(traits)
                        ? LogicalProject.create(rel, List.of(), cluster.getRexBuilder().identityProjects(
                                rel.getRowType()), rel.getRowType(), Set.of())
                        : rel,
                phases.timed("rewrites", PlannerRules.rewrites()),
                phases.timed("trim", PlannerRules.trim()),
                phases.timed("volcano", (p, rel, traits, materializations, lattices) -> {
                    PlannerRules.volcano(rel, skipped).forEach(p::addRule);
                    // Calcite's seam for adding or removing rules (its own prepare runs it at this point too);
                    // a rule that failed on the statement is left out whatever added it.
                    Hook.PLANNER.run(p);
                    skipped.forEach(p::removeRule);
                    p.setRoot(rel);
                    p.setRoot(rel.getTraitSet().equals(traits) ? rel : p.changeTraits(rel, traits));
                    try {
                        return p.chooseDelegate().findBestExp();
                    } catch (RelOptPlanner.CannotPlanException e) {
                        if (budget.spent()) {
                            throw new StatementFailure(new SqlError(SqlState.STATEMENT_TOO_COMPLEX,
                                    "statement too complex: the optimizer found no plan within "
                                    + PlanningBudget.RULE_ATTEMPTS + " rule attempts", e));
                        }
                        throw e;
                    } finally {
                        if (budget.spent()) {
                            LOG.debug("planning budget spent, the best plan found so far is used: {}", sql);
                        }
                    }
                }),
                phases.timed("calcs", PlannerRules.calcs()));
        // The result order is a required trait of the root (Calcite turns a Sort into such a requirement);
        // the final projection of the root's fields goes on top afterwards, as Calcite's own prepare does.
        RelNode best = program.run(planner, root.rel, planner.emptyTraitSet()
                .replace(EnumerableConvention.INSTANCE).replace(root.collation), List.of(), List.of());
        if (query && (!root.isRefTrivial() || !root.isNameTrivial())) {
            RexBuilder rexBuilder = cluster.getRexBuilder();
            List<RexNode> exprs = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (var field : root.fields) {
                exprs.add(rexBuilder.makeInputRef(best, field.getKey()));
                names.add(field.getValue());
            }
            // A Calc, not an EnumerableProject: Calcite implements projections only as calcs.
            best = EnumerableCalc.create(best,
                    RexProgram.create(best.getRowType(), exprs, null, names, rexBuilder));
        }
        // Sums of DOUBLEs compensated, of BIGINTs exact, whichever rule made them (ExactSums).
        best = ExactSums.apply(DecimalQuotients.apply(CaseBranchFlags.apply(best)));
        deadline.check();
        Map<String, Object> stash = new HashMap<>();
        ClassDeclaration generated = new EnumerableRelImplementor(cluster.getRexBuilder(), stash)
                .implementRoot((EnumerableRel) best, EnumerableRel.Prefer.ARRAY);
        String classBody = Expressions.toString(generated.memberDeclarations, "\n", false);
        Hook.JAVA_PLAN.run(classBody); // as Calcite's own compilation announces the code it compiles
        phases.mark("generate");
        Bindable<?> bindable = compiler.compile(generated.name, classBody, best.getRowType().getFieldCount(),
                deadline);
        phases.mark("compile");
        deadline.check();
        String explain = RelOptUtil.toString(best);
        phases.mark("explain");
        if (LOG.isDebugEnabled()) {
            LOG.debug("planned in {}, {}: {}\n{}", phases, budget, sql, explain);
        }
        return new CalcitePlan(schema, typeFactory, query, params, paramType, columns, bindable, stash, explain,
                sizes);
    }

    /**
     * LIMIT/FETCH and OFFSET take whole numbers. Calcite accepts an approximate or fractional literal there
     * and then fails inside the planner, so such a statement is refused up front with the standard states.
     */
    private static final BigDecimal MAX_ROW_COUNT = BigDecimal.valueOf(Long.MAX_VALUE);

    private static void checkRowCounts(SqlNode parsed) throws SqlError {
        SqlError[] bad = {null};
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    check(select.getFetch(), SqlState.INVALID_ROW_COUNT_IN_FETCH_FIRST, "LIMIT");
                    check(select.getOffset(), SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET, "OFFSET");
                } else if (call instanceof SqlOrderBy orderBy) {
                    check(orderBy.fetch, SqlState.INVALID_ROW_COUNT_IN_FETCH_FIRST, "LIMIT");
                    check(orderBy.offset, SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET, "OFFSET");
                }
                return super.visit(call);
            }

            private void check(SqlNode count, String state, String clause) {
                if (bad[0] == null && count instanceof SqlNumericLiteral n) {
                    if (!n.isExact() || (n.getScale() != null && n.getScale() > 0)) {
                        bad[0] = new SqlError(state, clause + " takes a whole number of rows, not " + n);
                    } else if (n.getValueAs(BigDecimal.class).compareTo(MAX_ROW_COUNT) > 0) {
                        // Computed numbers may have 38 digits, but a row count is a BIGINT.
                        bad[0] = new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, clause + " row count " + n
                                + " is out of range (at most " + Long.MAX_VALUE + ")");
                    }
                }
            }
        });
        if (bad[0] != null) {
            throw bad[0];
        }
    }

    /**
     * Validates {@code parsed}. Whatever the validator throws is about the statement, so a failure it reports
     * in an unexpected way (a Calcite shortcoming, not a KegDB fault) is still a 42000, not an internal error.
     */
    private static SqlNode validate(SqlValidator validator, SqlNode parsed) throws SqlError {
        try {
            return validator.validate(parsed);
        } catch (RuntimeException | AssertionError e) {
            SqlError error = SqlErrors.translate(e);
            if (!error.sqlState().equals(SqlState.GENERAL_ERROR)) {
                throw error;
            }
            throw new SqlError(SqlState.SYNTAX_ERROR, "invalid statement: " + e, e);
        }
    }

    /** The parameters' types; Calcite cannot type a parameter in some places (ORDER BY ?). */
    private static RelDataType parameterRowType(SqlValidator validator, SqlNode validated) throws SqlError {
        try {
            return validator.getParameterRowType(validated);
        } catch (UnsupportedOperationException e) {
            throw new SqlError(SqlState.SYNTAX_ERROR,
                    "a parameter (?) cannot be used here: its type cannot be inferred", e);
        }
    }

    private static boolean touchesSystemSchema(CalciteCatalogReader reader, SqlNode validated) {
        SqlNode target = switch (validated.getKind()) {
            case INSERT -> ((SqlInsert) validated).getTargetTable();
            case UPDATE -> ((org.apache.calcite.sql.SqlUpdate) validated).getTargetTable();
            case DELETE -> ((org.apache.calcite.sql.SqlDelete) validated).getTargetTable();
            default -> null;
        };
        if (!(target instanceof org.apache.calcite.sql.SqlIdentifier id)) {
            return false;
        }
        var table = reader.getTable(id.names);
        return table != null && table.unwrap(SystemTable.class) != null;
    }

    /** The columns of {@code type}, named by {@code names} where given (else by the type's field names). */
    private static List<ColumnInfo> columns(RelDataType type, List<List<String>> origins, List<String> names) {
        List<ColumnInfo> out = new ArrayList<>();
        for (RelDataTypeField f : type.getFieldList()) {
            List<String> origin = origins == null ? null : origins.get(f.getIndex());
            String schemaName = origin != null && origin.size() >= 3 ? origin.get(origin.size() - 3) : "";
            String table = origin != null && origin.size() >= 2 ? origin.get(origin.size() - 2) : "";
            String name = names != null && names.size() == type.getFieldCount() ? names.get(f.getIndex()) : f.getName();
            out.add(columnInfo(name, f.getType(), schemaName, table));
        }
        return out;
    }

    static ColumnInfo columnInfo(String name, RelDataType t, String schema, String table) {
        int precision = t.getPrecision();
        if (precision < 0 || precision == Integer.MAX_VALUE) {
            precision = 0;
        }
        int scale = Math.max(t.getScale(), 0);
        if (t.getScale() == RelDataType.SCALE_NOT_SPECIFIED) {
            scale = 0;
        }
        return new ColumnInfo(name, t.getSqlTypeName().getJdbcOrdinal(), t.getSqlTypeName().getName(), precision,
                scale, t.isNullable(), schema, table);
    }
}
