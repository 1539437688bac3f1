/**
 * The driver under the clients people put in front of it: HikariCP pooling KegDB connections from many
 * threads, and the metadata crawl DBeaver runs when it connects.
 */
package io.kegdb.jdbc.clients;
