/**
 * What the SQL layer counts about itself: its meters ({@link io.kegdb.sql.stats.SqlMeters}: statements by
 * kind, plan-cache hits and misses, conflicts and retries, rows), the per-text statement statistics behind
 * {@code SYS.STATEMENTS} ({@link io.kegdb.sql.stats.StatementStatistics}) and the slow-statement log
 * ({@link io.kegdb.sql.stats.SlowStatementLog}). Statements are known by their normalized text
 * ({@link io.kegdb.sql.direct.StatementText}): literals as {@code ?}, never values.
 */
package io.kegdb.sql.stats;
