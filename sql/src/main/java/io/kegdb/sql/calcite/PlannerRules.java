package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.StatementFailure;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableMergeUnionRule;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.interpreter.Bindables;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCostImpl;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.AbstractConverter;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.Match;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.rules.AggregateCaseToFilterRule;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.rel.rules.AggregateExpandWithinDistinctRule;
import org.apache.calcite.rel.rules.AggregateJoinTransposeRule;
import org.apache.calcite.rel.rules.AggregateMergeRule;
import org.apache.calcite.rel.rules.AggregateProjectMergeRule;
import org.apache.calcite.rel.rules.AggregateProjectPullUpConstantsRule;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.AggregateRemoveRule;
import org.apache.calcite.rel.rules.CalcMergeRule;
import org.apache.calcite.rel.rules.CalcRemoveRule;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rel.rules.FilterAggregateTransposeRule;
import org.apache.calcite.rel.rules.FilterCalcMergeRule;
import org.apache.calcite.rel.rules.FilterJoinRule;
import org.apache.calcite.rel.rules.FilterMergeRule;
import org.apache.calcite.rel.rules.FilterProjectTransposeRule;
import org.apache.calcite.rel.rules.FilterSampleTransposeRule;
import org.apache.calcite.rel.rules.FilterTableScanRule;
import org.apache.calcite.rel.rules.FilterToCalcRule;
import org.apache.calcite.rel.rules.FilterWindowTransposeRule;
import org.apache.calcite.rel.rules.IntersectToDistinctRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushExpressionsRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MatchRule;
import org.apache.calcite.rel.rules.MinusToDistinctRule;
import org.apache.calcite.rel.rules.ProjectAggregateMergeRule;
import org.apache.calcite.rel.rules.ProjectCalcMergeRule;
import org.apache.calcite.rel.rules.ProjectFilterTransposeRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rel.rules.ProjectOverSumToSum0Rule;
import org.apache.calcite.rel.rules.ProjectRemoveRule;
import org.apache.calcite.rel.rules.ProjectTableScanRule;
import org.apache.calcite.rel.rules.ProjectToCalcRule;
import org.apache.calcite.rel.rules.ProjectToWindowRule;
import org.apache.calcite.rel.rules.ProjectWindowTransposeRule;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rel.rules.SampleToFilterRule;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.apache.calcite.rel.rules.SingleValuesOptimizationRules;
import org.apache.calcite.rel.rules.SortJoinTransposeRule;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rel.rules.SortRemoveConstantKeysRule;
import org.apache.calcite.rel.rules.SortRemoveRule;
import org.apache.calcite.rel.rules.SortUnionTransposeRule;
import org.apache.calcite.rel.rules.UnionMergeRule;
import org.apache.calcite.rel.rules.UnionPullUpConstantsRule;
import org.apache.calcite.rel.rules.UnionToDistinctRule;
import org.apache.calcite.rel.rules.UnionToValuesRule;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rules and programs {@link CalcitePlanner} runs, each rule built from its own config. Calcite's catalogues
 * of rules ({@code CoreRules}, {@code RelOptRules}, {@code Programs}) build every rule they know, a few hundred,
 * the first time any of them is touched: in a fresh JVM that was a quarter of a second of the first planned
 * statement (the cold start of {@code kegdb bench sql}), mostly for rules no KegDB statement runs.
 */
final class PlannerRules {

    private static final Logger LOG = LoggerFactory.getLogger(PlannerRules.class);

    static final RelOptRule FILTER_INTO_JOIN = FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.DEFAULT
            .toRule();
    static final RelOptRule JOIN_CONDITION_PUSH = FilterJoinRule.JoinConditionPushRule.JoinConditionPushRuleConfig
            .DEFAULT.toRule();

    /**
     * A limit (LIMIT/FETCH, OFFSET, with or without an order) goes below a projection its order does not depend
     * on (it sorts by the projection's plain columns), so the projection computes only the rows the limit keeps:
     * an overflow, a failing CAST or a division by zero on a row OFFSET skips raised an error. Calcite's own
     * transposition is also among the cost-based rules, but there a limit of {@code ?} rows (literals become
     * parameters) costs the same on either side of the projection, and the planner kept it above. Not through
     * a projection with a window (it must see every row) or a sub-query (it becomes a join, whose rows the limit
     * then has to count).
     */
    static final RelOptRule LIMIT_BELOW_PROJECTION = SortProjectTransposeRule.Config.DEFAULT
            .withOperandSupplier(b -> b.operand(Sort.class).predicate(s -> s.offset != null || s.fetch != null)
                    .oneInput(b2 -> b2.operand(LogicalProject.class).predicate(p -> !p.containsOver()
                            && !SubQueries.becomeJoins(p.getProjects())).anyInputs()))
            .withDescription("SortProjectTransposeRule(limit)")
            .as(SortProjectTransposeRule.Config.class).toRule();

    /**
     * What the rules that rewrite aggregates build their results with. Calcite's RelBuilder (calcite-core 1.42.0)
     * turns an aggregate whose input is already unique on its group keys into a projection of each call's
     * constant, and the constant of {@code GROUPING} (which distinct aggregates are expanded with) is an INTEGER 0
     * where the call is a BIGINT: the rule's result then has another row type than the aggregate it replaces and
     * the planner refuses it ({@code AggregateReduceFunctionsRule} on {@code SELECT k, COUNT(DISTINCT k), AVG(k)
     * ... GROUP BY k}, k the key). With this builder a rule keeps the aggregate; {@code AggregateRemoveRule},
     * which casts each constant to its call's type, removes it.
     */
    private static final RelBuilderFactory KEEPS_AGGREGATES = RelBuilder.proto(Contexts.of(
            RelBuilder.Config.DEFAULT.withAggregateUnique(true)));

    private static RelOptRule build(RelRule.Config config) {
        return config.withRelBuilderFactory(KEEPS_AGGREGATES).toRule();
    }

    /**
     * The cost-based phase's rules for {@code tree}. Together the groups are the rules
     * {@code RelOptUtil.registerDefaultRules(planner, false, false)} registers on calcite-core 1.42.0, less those
     * for what KegDB has no use of (streams, star tables and lattices, exchanges) and less
     * {@code JOIN_ON_UNIQUE_TO_SEMI_JOIN}, which on that version also fires on physical (enumerable) joins and then
     * fails with an internal error (a LEFT JOIN on the key reading only the left side); the plans it would
     * simplify run correctly without it. A group is left out when the tree has none of the relations its rules
     * match and no rule of the others makes one, so it could not fire: each group's rules are built the first time
     * a statement needs them.
     */
    static List<RelOptRule> volcano(RelNode tree, Set<RelOptRule> skipped) {
        Shape shape = Shape.of(tree);
        List<RelOptRule> rules = new ArrayList<>(Always.RULES);
        if (shape.joins) {
            rules.addAll(Joins.RULES);
        }
        if (shape.aggregates) {
            rules.addAll(Aggregates.RULES);
        }
        if (shape.setOps) {
            rules.addAll(SetOps.RULES);
        }
        if (shape.windows) {
            rules.addAll(Windows.RULES);
        }
        if (shape.samples) {
            rules.addAll(Samples.RULES);
        }
        if (shape.matches) {
            rules.add(MatchRule.Config.DEFAULT.toRule());
        }
        rules.removeAll(skipped);
        return rules;
    }

    /** Implementation (enumerable conversions) and what applies to any statement. */
    private static final class Always {
        /**
         * Calcite's merge join, but not on a BOOLEAN key: the generated code makes a boolean key selector a
         * Predicate1, which no mergeJoin method takes, and the statement failed to compile (a NOT IN over a
         * BOOLEAN column). Such joins are hash joins.
         */
        static final RelOptRule MERGE_JOIN = ((ConverterRule) EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE).config
                .withConversion(LogicalJoin.class, (LogicalJoin join) -> !joinsOnBoolean(join), Convention.NONE,
                        EnumerableConvention.INSTANCE, "EnumerableMergeJoinRule")
                .toRule();

        private static boolean joinsOnBoolean(Join join) {
            JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), join.getCondition());
            return info.leftKeys.stream().anyMatch(i -> join.getLeft().getRowType().getFieldList().get(i).getType()
                    .getSqlTypeName() == SqlTypeName.BOOLEAN);
        }

        /**
         * Calcite's merge union (calcite-core 1.42.0) also pushes the sort's limit into each input, which is right
         * for UNION ALL only: below a UNION, an input's duplicates then take places of the limit, and {@code SELECT v
         * FROM a UNION SELECT v FROM b ORDER BY 1 DESC LIMIT 5} over b holding one value twice returned 4 rows. A
         * UNION merges only under a sort without a limit.
         */
        private static final RelOptRule MERGE_UNION_ALL = EnumerableMergeUnionRule.Config.DEFAULT_CONFIG
                .withOperandSupplier(b -> b.operand(LogicalSort.class).oneInput(b2 -> b2.operand(LogicalUnion.class)
                        .predicate(u -> u.all).anyInputs()))
                .withDescription("EnumerableMergeUnionRule(ALL)")
                .as(EnumerableMergeUnionRule.Config.class).toRule();
        private static final RelOptRule MERGE_UNION_UNLIMITED = EnumerableMergeUnionRule.Config.DEFAULT_CONFIG
                .withOperandSupplier(b -> b.operand(LogicalSort.class).predicate(s -> s.fetch == null)
                        .oneInput(b2 -> b2.operand(LogicalUnion.class).predicate(u -> !u.all).anyInputs()))
                .withDescription("EnumerableMergeUnionRule(DISTINCT, no limit)")
                .as(EnumerableMergeUnionRule.Config.class).toRule();

        static final List<RelOptRule> RULES = always();

        private static List<RelOptRule> always() {
            List<RelOptRule> rules = new ArrayList<>(EnumerableRules.ENUMERABLE_RULES);
            rules.replaceAll(r -> r == EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE ? MERGE_JOIN : r);
            rules.replaceAll(r -> r == EnumerableRules.ENUMERABLE_MERGE_UNION_RULE ? MERGE_UNION_ALL : r);
            rules.add(MERGE_UNION_UNLIMITED);
            rules.addAll(List.of(EnumerableRules.TO_INTERPRETER, Bindables.BINDABLE_TABLE_SCAN_RULE,
                    AbstractConverter.ExpandConversionRule.INSTANCE,
                    ProjectMergeRule.Config.DEFAULT.toRule(), ProjectRemoveRule.Config.DEFAULT.toRule(),
                    ProjectFilterTransposeRule.Config.DEFAULT.toRule(),
                    FilterProjectTransposeRule.Config.DEFAULT.toRule(), FilterMergeRule.Config.DEFAULT.toRule(),
                    FilterTableScanRule.Config.DEFAULT.toRule(), ProjectTableScanRule.Config.DEFAULT.toRule(),
                    ProjectTableScanRule.Config.INTERPRETER.toRule(),
                    ReduceExpressionsRule.FilterReduceExpressionsRule.FilterReduceExpressionsRuleConfig.DEFAULT
                            .toRule(),
                    DateRangeRules.FILTER_INSTANCE, CalcRemoveRule.Config.DEFAULT.toRule(),
                    SortProjectTransposeRule.Config.DEFAULT.toRule(),
                    SortRemoveConstantKeysRule.Config.DEFAULT.toRule(), SortRemoveRule.Config.DEFAULT.toRule(),
                    PruneEmptyRules.PROJECT_INSTANCE, PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.SORT_INSTANCE,
                    PruneEmptyRules.SORT_FETCH_ZERO_INSTANCE, PruneEmptyRules.EMPTY_TABLE_INSTANCE));
            return List.copyOf(rules);
        }
    }

    /** Calcite's join rules and, first, the lookup join on a key. */
    private static final class Joins {
        /**
         * A join with an aggregate on its right becomes a semi-join with the aggregate's input when the aggregate is
         * distinct on the join's keys. Calcite's rules (calcite-core 1.42.0) also fire on an aggregate with no group
         * keys, which yields exactly one row even over an empty input: {@code x JOIN (SELECT COUNT(*) FROM empty) ON
         * TRUE}, as the rewrite of {@code k = 1 OR v IN (SELECT ... empty)} holds, lost every row. Here they need at
         * least one group key.
         */
        private static final RelOptRule PROJECT_TO_SEMI_JOIN = SemiJoinRule.ProjectToSemiJoinRule
                .ProjectToSemiJoinRuleConfig.DEFAULT
                .withOperandSupplier(b -> b.operand(Project.class).oneInput(b2 -> b2.operand(Join.class)
                        .predicate(Joins::innerOrLeft).inputs(b3 -> b3.operand(RelNode.class).anyInputs(),
                                b4 -> b4.operand(Aggregate.class).predicate(Joins::grouped).anyInputs())))
                .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class).toRule();
        private static final RelOptRule JOIN_TO_SEMI_JOIN = SemiJoinRule.JoinToSemiJoinRule
                .JoinToSemiJoinRuleConfig.DEFAULT
                .withOperandSupplier(b -> b.operand(Join.class).predicate(Joins::innerOrLeft)
                        .inputs(b2 -> b2.operand(RelNode.class).anyInputs(),
                                b3 -> b3.operand(Aggregate.class).predicate(Joins::grouped).anyInputs()))
                .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class).toRule();

        private static boolean innerOrLeft(Join join) {
            return join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT;
        }

        private static boolean grouped(Aggregate aggregate) {
            return aggregate.getGroupCount() > 0;
        }

        private static final List<RelOptRule> CALCITE = List.of(FILTER_INTO_JOIN, JOIN_CONDITION_PUSH,
                JoinPushExpressionsRule.Config.DEFAULT.toRule(), JoinCommuteRule.Config.DEFAULT.toRule(),
                JoinPushThroughJoinRule.LEFT, JoinPushThroughJoinRule.RIGHT,
                PROJECT_TO_SEMI_JOIN, JOIN_TO_SEMI_JOIN,
                build(AggregateJoinTransposeRule.Config.DEFAULT), SortJoinTransposeRule.Config.DEFAULT.toRule(),
                PruneEmptyRules.JOIN_LEFT_INSTANCE, PruneEmptyRules.JOIN_RIGHT_INSTANCE,
                SingleValuesOptimizationRules.JOIN_LEFT_INSTANCE, SingleValuesOptimizationRules.JOIN_RIGHT_INSTANCE,
                SingleValuesOptimizationRules.JOIN_LEFT_PROJECT_INSTANCE,
                SingleValuesOptimizationRules.JOIN_RIGHT_PROJECT_INSTANCE);

        static final List<RelOptRule> RULES = joins();

        private static List<RelOptRule> joins() {
            List<RelOptRule> rules = new ArrayList<>(KvLookupJoinRule.ALL);
            rules.addAll(CALCITE);
            return List.copyOf(rules);
        }
    }

    /** The rules that rewrite aggregates, each building its result with {@link #KEEPS_AGGREGATES}. */
    private static final class Aggregates {
        static final List<RelOptRule> RULES = List.of(
                build(AggregateProjectMergeRule.Config.DEFAULT), build(AggregateMergeRule.Config.DEFAULT),
                build(AggregateRemoveRule.Config.DEFAULT), build(AggregateProjectPullUpConstantsRule.Config.ANY),
                build(AggregateExpandDistinctAggregatesRule.Config.DEFAULT),
                build(AggregateExpandWithinDistinctRule.Config.DEFAULT),
                build(AggregateCaseToFilterRule.Config.DEFAULT), build(AggregateReduceFunctionsRule.Config.DEFAULT),
                build(FilterAggregateTransposeRule.Config.DEFAULT),
                build(ProjectAggregateMergeRule.Config.DEFAULT), PruneEmptyRules.AGGREGATE_INSTANCE);

    }

    private static final class SetOps {
        static final List<RelOptRule> RULES = List.of(UnionMergeRule.Config.DEFAULT.toRule(),
                UnionMergeRule.Config.INTERSECT.toRule(), UnionMergeRule.Config.MINUS.toRule(),
                UnionPullUpConstantsRule.Config.DEFAULT.toRule(), UnionToDistinctRule.Config.DEFAULT.toRule(),
                UnionToValuesRule.Config.DEFAULT.toRule(), IntersectToDistinctRule.Config.DEFAULT.toRule(),
                MinusToDistinctRule.Config.DEFAULT.toRule(), SortUnionTransposeRule.Config.DEFAULT.toRule(),
                PruneEmptyRules.UNION_INSTANCE, PruneEmptyRules.INTERSECT_INSTANCE, PruneEmptyRules.MINUS_INSTANCE);
    }

    private static final class Windows {
        static final List<RelOptRule> RULES = List.of(
                ProjectToWindowRule.ProjectToLogicalProjectAndWindowRule.ProjectToLogicalProjectAndWindowRuleConfig
                        .DEFAULT.toRule(),
                ProjectWindowTransposeRule.Config.DEFAULT.toRule(), FilterWindowTransposeRule.Config.DEFAULT.toRule(),
                ProjectOverSumToSum0Rule.Config.DEFAULT.toRule(), PruneEmptyRules.WINDOW_INSTANCE);
    }

    private static final class Samples {
        static final List<RelOptRule> RULES = List.of(SampleToFilterRule.Config.DEFAULT.toRule(),
                FilterSampleTransposeRule.Config.DEFAULT.toRule());
    }

    /**
     * Which relations a tree holds, for {@link #volcano}. Set operations become aggregates (UNION, INTERSECT and
     * EXCEPT to DISTINCT), and a distinct aggregate may be expanded into a join, so those count as both.
     */
    private static final class Shape extends RelVisitor {
        boolean joins;
        boolean aggregates;
        boolean setOps;
        boolean windows;
        boolean samples;
        boolean matches;

        static Shape of(RelNode tree) {
            Shape shape = new Shape();
            shape.go(tree);
            return shape;
        }

        @Override
        public void visit(RelNode node, int ordinal, RelNode parent) {
            if (node instanceof Join || node instanceof Correlate) {
                joins = true;
            } else if (node instanceof Aggregate aggregate) {
                aggregates = true;
                joins |= aggregate.getAggCallList().stream().anyMatch(AggregateCall::isDistinct);
            } else if (node instanceof SetOp) {
                setOps = true;
                aggregates = true;
            } else if (node instanceof Window) {
                windows = true;
            } else if (node instanceof Sample) {
                samples = true;
            } else if (node instanceof Match) {
                matches = true;
            }
            node.accept(new RexShuttle() {
                @Override
                public RexNode visitOver(RexOver over) {
                    windows = true;
                    return over;
                }
            });
            super.visit(node, ordinal, parent);
        }
    }

    /** The final heuristic pass that merges projections and filters into calcs (Calcite's {@code CALC_RULES}). */
    private static final Program CALCS = hep(List.of(Bindables.FROM_NONE_RULE, EnumerableRules.ENUMERABLE_CALC_RULE,
            EnumerableRules.ENUMERABLE_FILTER_TO_CALC_RULE, EnumerableRules.ENUMERABLE_PROJECT_TO_CALC_RULE,
            FilterToCalcRule.Config.DEFAULT.toRule(), ProjectToCalcRule.Config.DEFAULT.toRule(),
            CalcMergeRule.Config.DEFAULT.toRule(), FilterCalcMergeRule.Config.DEFAULT.toRule(),
            ProjectCalcMergeRule.Config.DEFAULT.toRule()));

    private PlannerRules() {
    }

    /** {@code programs} one after the other, as Calcite's {@code Programs.sequence}. */
    static Program sequence(Program... programs) {
        return (planner, rel, traits, materializations, lattices) -> {
            RelNode out = rel;
            for (Program program : programs) {
                out = program.run(planner, out, traits, materializations, lattices);
            }
            return out;
        };
    }

    /**
     * A heuristic pass of {@code rules} to a fixed point, as Calcite's {@code Programs.hep} (no DAG), within the
     * statement's {@link PlanningBudget} (found in the planner's context): at most
     * {@link PlanningBudget#HEURISTIC_MATCHES} rule applications, its deadline checked at each, and without the
     * rules {@link Skipped} names.
     */
    @SuppressWarnings("deprecation") // the metadata set-up Programs.hep itself does on calcite-core 1.42.0
    static Program hep(List<RelOptRule> rules) {
        return (planner, rel, traits, materializations, lattices) -> {
            HepProgramBuilder builder = HepProgram.builder().addMatchLimit(PlanningBudget.HEURISTIC_MATCHES);
            Skipped skipped = planner.getContext().unwrap(Skipped.class);
            rules.stream().filter(r -> skipped == null || !skipped.rules().contains(r))
                    .forEach(builder::addRuleInstance);
            HepPlanner hep = new HepPlanner(builder.build(), null, true, null, RelOptCostImpl.FACTORY);
            PlanningBudget budget = planner.getContext().unwrap(PlanningBudget.class);
            if (budget != null) {
                hep.addListener(budget);
            }
            List<RelMetadataProvider> providers = new ArrayList<>(List.of(DefaultRelMetadataProvider.INSTANCE));
            hep.registerMetadataProviders(providers);
            rel.getCluster().setMetadataProvider(ChainedRelMetadataProvider.of(providers));
            hep.setRoot(rel);
            return hep.findBestExp();
        };
    }

    /** The rules one planning of a statement leaves out: rules that failed with an internal error on it before. */
    record Skipped(Set<RelOptRule> rules) {
    }

    static Program calcs() {
        return CALCS;
    }

    /**
     * Calcite's rewrites of sub-queries, correlations and measures into joins and aggregates (its
     * {@code Programs.subQuery}, {@code decorrelate} and {@code measure}; the first also turns SUM over a window
     * into $SUM0), for a statement that has any of these or a window; they leave any other statement as it is,
     * so it skips them and the rule catalogue they build.
     */
    static Program rewrites() {
        return (planner, rel, traits, materializations, lattices) -> needsRewrites(rel)
                ? Programs.sequence(Programs.subQuery(DefaultRelMetadataProvider.INSTANCE),
                        (p, r, t, m, l) -> ConstantGroupKeys.beforeDecorrelation(r), DECORRELATE,
                        Programs.measure(DefaultRelMetadataProvider.INSTANCE))
                        .run(planner, rel, traits, materializations, lattices)
                : rel;
    }

    /**
     * Calcite's decorrelation, which turns correlations into joins. It is an optimization: a correlation it
     * cannot rewrite stays a Correlate, run as a nested loop. When it fails on a statement (calcite-core 1.42.0
     * throws "Decorrelation produced a relation with a different type" on some shapes), the statement keeps its
     * correlations the same way.
     */
    private static final Program DECORRELATE = (planner, rel, traits, materializations, lattices) -> {
        try {
            return Programs.decorrelate().run(planner, rel, traits, materializations, lattices);
        } catch (StatementFailure e) {
            throw e; // the deadline or the planning budget
        } catch (RuntimeException | AssertionError e) {
            LOG.debug("decorrelation failed, the correlations stay nested loops", e);
            return rel;
        }
    };

    /** Unused fields are trimmed from each relation, as Calcite's {@code Programs.trim}. */
    static Program trim() {
        return (planner, rel, traits, materializations, lattices) -> new RelFieldTrimmer(null,
                RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null)).trim(rel);
    }

    /** True if the tree holds a sub-query, a correlation, a window or a measure aggregate. */
    static boolean needsRewrites(RelNode root) {
        boolean[] found = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found[0] = true;
                return subQuery;
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                found[0] = true;
                return variable;
            }

            @Override
            public RexNode visitOver(RexOver over) {
                found[0] = true;
                return over;
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (found[0]) {
                    return;
                }
                if (node instanceof Correlate || node instanceof Aggregate aggregate && aggregate.getAggCallList()
                        .stream().map(AggregateCall::getAggregation).anyMatch(f -> f.getKind() == SqlKind.AGG_M2V)) {
                    found[0] = true;
                    return;
                }
                node.accept(finder);
                super.visit(node, ordinal, parent);
            }
        }.go(root);
        return found[0];
    }
}
