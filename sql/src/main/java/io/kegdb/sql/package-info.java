/**
 * SQL over a {@link io.kegdb.engine.KvStore}: the public API that the JDBC driver and applications use.
 *
 * <p>Open a {@link io.kegdb.sql.SqlDatabase} on a store (with {@link io.kegdb.sql.DatabaseOptions} and extra
 * {@link io.kegdb.sql.SystemTableSource system tables}), take a {@link io.kegdb.sql.SqlSession} per connection,
 * prepare {@link io.kegdb.sql.SqlStatement}s and read {@link io.kegdb.sql.SqlResult}s; failures are
 * {@link io.kegdb.sql.SqlError}s with a SQLState (named in {@link io.kegdb.sql.SqlState}; the store's exceptions
 * are mapped to them by type in {@link io.kegdb.sql.StoreErrors}, which the JDBC driver uses too), and a
 * {@link io.kegdb.sql.Deadline} stops a long statement.
 * {@link io.kegdb.sql.TableInfo} and {@link io.kegdb.sql.ColumnInfo} describe tables and columns.
 *
 * <p>The implementation entry lives here too, package-private, so that the factory
 * {@link io.kegdb.sql.SqlDatabase#open} reaches it without a public implementation class: {@code KegDatabase}
 * (catalog, plan cache, and the dispatch of a statement to a {@code Plan}: EXPLAIN, DDL, the key-value fast
 * path or Calcite), {@code KegSession} (autocommit and the transaction overlay), {@code ReplanningStatement}
 * (a prepared statement that plans again after DDL) and {@code PlanCache}.
 *
 * <p>Every other package under {@code io.kegdb.sql} is internal: not for applications, and other modules must
 * not import it ({@code ArchitectureTest} checks this). The internal packages depend on the API types here
 * (SqlError, SqlResult, ColumnInfo, Deadline ...), and the entry here depends on them: that one cycle is kept,
 * because the API's factory has to reach the implementation. Among the internal packages the arrows run one way:
 * {@code catalog}, {@code txn} &lt;- {@code plan} &lt;- {@code direct}, {@code calcite}.
 */
package io.kegdb.sql;
