/**
 * Internal (not for applications): the hand-written path, statements run without Calcite.
 *
 * <p>{@link io.kegdb.sql.direct.Lexer} and {@link io.kegdb.sql.direct.TokenCursor} read the statement text;
 * {@link io.kegdb.sql.direct.DdlPlan} runs CREATE/DROP TABLE; {@link io.kegdb.sql.direct.BackupPlan} BACKUP TO; {@link io.kegdb.sql.direct.KeyValuePlan} recognizes
 * single-row statements by key (one get, put, putIfAbsent or delete); {@link io.kegdb.sql.direct.ExplainPlan}
 * answers EXPLAIN PLAN FOR with any plan's {@link io.kegdb.sql.plan.Plan#explain()}. Depends on {@code plan},
 * {@code catalog} and the API package, not on {@code calcite}.
 */
package io.kegdb.sql.direct;
