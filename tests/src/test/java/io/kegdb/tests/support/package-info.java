/** Helpers shared by the suites that run child JVMs. */
package io.kegdb.tests.support;
