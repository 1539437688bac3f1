/**
 * Internal (not for applications): what every way of running a statement shares.
 *
 * <p>{@link io.kegdb.sql.plan.Plan} is a statement ready to run, executed in a
 * {@link io.kegdb.sql.plan.PlanSession} (the session as plans see it, so plans need not know the session class);
 * {@link io.kegdb.sql.plan.ExecutionContext} is one execution's parameters, reads and writes;
 * {@link io.kegdb.sql.plan.KeyOperand} a literal or parameter a key lookup needs;
 * {@link io.kegdb.sql.plan.CountResult} and {@link io.kegdb.sql.plan.EnumeratorResult} the two kinds of result;
 * {@link io.kegdb.sql.plan.SqlErrors} maps what Calcite or the JDK throw to SQLStates (the store's failures
 * through {@link io.kegdb.sql.StoreErrors}), and
 * {@link io.kegdb.sql.plan.StatementFailure} carries an error out of code Calcite calls.
 * Depends on the API package, {@code catalog} and {@code txn}; {@code direct} and {@code calcite} depend on it.
 */
package io.kegdb.sql.plan;
