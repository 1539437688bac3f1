/**
 * Internal (not for applications): the hand-written path, statements run without Calcite.
 *
 * <p>{@link io.kegdb.sql.direct.Lexer} and {@link io.kegdb.sql.direct.TokenCursor} read the statement text;
 * {@link io.kegdb.sql.direct.DdlPlan} runs CREATE/DROP TABLE; {@link io.kegdb.sql.direct.BackupPlan} BACKUP TO; {@link io.kegdb.sql.direct.KeyValuePlan} recognizes
 * single-row statements by key (one get, put, putIfAbsent or delete); {@link io.kegdb.sql.direct.ExplainPlan}
 * answers EXPLAIN PLAN FOR with any plan's {@link io.kegdb.sql.plan.Plan#explain()};
 * {@link io.kegdb.sql.direct.LiteralParameters} turns a text's literals into parameters so statements share a
 * plan, which {@link io.kegdb.sql.direct.BoundLiteralsPlan} runs with one statement's literals. Depends on {@code plan},
 * {@code catalog} and the API package, not on {@code calcite}.
 */
package io.kegdb.sql.direct;
