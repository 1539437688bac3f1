/**
 * Many JDBC connections on one store at once while it merges: the READ_COMMITTED guarantees (read your
 * writes, monotonic reads, no lost committed update, atomic and invisible-until-commit transactions) hold.
 */
package io.kegdb.jdbc.concurrency;
