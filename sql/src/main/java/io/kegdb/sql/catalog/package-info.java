/**
 * Internal (not for applications): the persisted catalog of key/value tables.
 *
 * <p>{@link io.kegdb.sql.catalog.Catalog} stores the table list and its version in keyspace 0 of the store;
 * {@link io.kegdb.sql.catalog.TableDef} is one table (its id, key and value columns, how rows are keyed);
 * {@link io.kegdb.sql.catalog.ColumnType} is a column type with its order-preserving byte encodings.
 * Depends only on the API package (for {@link io.kegdb.sql.SqlError}) and the engine.
 */
package io.kegdb.sql.catalog;
