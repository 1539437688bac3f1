/**
 * SQL fuzzing through JDBC: seeded generated statements on a directory store, each answered with a result or
 * an SQLException with a precise SQLState (never an internal error), the connection usable after a failure, a
 * failed statement leaving every table as it was; and one regression case per bug the fuzzer found.
 */
package io.kegdb.jdbc.fuzz;
