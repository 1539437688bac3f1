/**
 * What a console user runs, built by the driver module's package phase: the shaded jar (relocated
 * libraries, only KegDB's driver registered), sqlline on KegDB, and the {@code ./kegdb} sql and
 * maintenance commands with their output and exit codes.
 */
package io.kegdb.tests.launcher;
