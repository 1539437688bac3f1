/**
 * What a store means to the operating system process that holds it: a second process is refused the store
 * (engine or JDBC) while the first holds it and gets it once the first dies; one process that maps and
 * drops many segments stays far below Linux's limit of memory areas; and a fresh process loads no planner
 * class until its first planned statement.
 */
package io.kegdb.tests.process;
