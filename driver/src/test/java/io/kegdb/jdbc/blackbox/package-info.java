/**
 * The driver as an application sees it, through {@code java.sql} and {@code DriverManager} only: URLs,
 * statements, transactions, types, errors and their SQLStates, query timeouts and cancellation, and the
 * size limits of keys, values and rows (engine and SQL).
 */
package io.kegdb.jdbc.blackbox;
