/**
 * Internal (not for applications): statements planned and run by Apache Calcite.
 *
 * <p>{@link io.kegdb.sql.calcite.CalcitePlanner} parses, validates and optimizes into a
 * {@link io.kegdb.sql.calcite.CalcitePlan}; {@link io.kegdb.sql.calcite.CatalogSchema} shows the catalog to
 * Calcite as {@code KvTable}s and {@link io.kegdb.sql.calcite.SystemTable}s. The rules ({@code KvFilterRule},
 * {@code KvProjectRule}, {@code KvSortRule}, {@code KvAggregateRule}, {@code KvCountRule}, {@code KvModifyRule})
 * push work into {@code KvScan} (a key-range scan, read by {@code KvScanSource}), {@code KvCount} (COUNT(*)
 * answered by the store, {@code KvCountSource}) and {@code KvTableModify} (DML, applied by
 * {@link io.kegdb.sql.calcite.KvModifier}); {@code KeyConditions} turns filter conditions into
 * {@code KeyPredicate}s of {@code KeyRange}s; {@code JoinKeyConditionRule} copies conditions across a join's
 * equalities; {@code PlanningBudget} bounds what planning may spend and stops it at the deadline.
 * Depends on {@code plan}, {@code catalog}, {@code txn} and the API package, not on {@code direct}.
 */
package io.kegdb.sql.calcite;
