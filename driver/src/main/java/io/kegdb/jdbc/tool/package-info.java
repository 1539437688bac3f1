/** The command-line tools that need the SQL layer beside the cluster's: {@code kegdb cluster}. */
package io.kegdb.jdbc.tool;
