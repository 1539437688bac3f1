package io.kegdb.tests.process;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Opens {@code jdbc:kegdb:<dir>}, runs a point query (the key/value fast path) and then a GROUP BY (planned
 * by Calcite), printing a line after each step, so a parent watching this JVM's class loading on the same
 * stdout sees which classes each step loaded.
 */
public final class FirstStatementsChild {

    private FirstStatementsChild() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + args[0]);
             Statement s = c.createStatement()) {
            System.out.println("CONNECTED");
            try (ResultSet rs = s.executeQuery("SELECT v FROM kv WHERE k = 'a'")) {
                rs.next();
            }
            System.out.println("POINT QUERY DONE");
            try (ResultSet rs = s.executeQuery("SELECT v, COUNT(*) FROM kv GROUP BY v")) {
                rs.next();
            }
            System.out.println("PLANNED QUERY DONE");
        }
    }
}
