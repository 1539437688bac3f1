package io.kegdb.tests.launcher;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * An application with its own Calcite and Guava ahead of KegDB's single jar on the classpath: it uses its
 * Calcite, then KegDB through JDBC (DDL, inserts, a planned GROUP BY), then its Calcite again. Prints one
 * line per check; any failure ends the JVM with a stack trace and a non-zero status.
 */
public final class HostWithOwnCalcite {

    public static void main(String[] args) throws Exception {
        SqlNode parsed = SqlParser.create("SELECT a, COUNT(*) FROM t GROUP BY a").parseQuery();
        System.out.println("host calcite parsed " + parsed.getKind());
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:x");
             Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE T (ID BIGINT PRIMARY KEY, GRP VARCHAR)");
            for (int i = 1; i <= 6; i++) {
                s.executeUpdate("INSERT INTO T VALUES (" + i + ", 'g" + (i % 3) + "')");
            }
            StringBuilder groups = new StringBuilder();
            try (ResultSet rs = s.executeQuery(
                    "SELECT GRP, COUNT(*), SUM(ID) FROM T WHERE ID > 1 GROUP BY GRP ORDER BY GRP")) {
                while (rs.next()) {
                    groups.append(rs.getString(1)).append('=').append(rs.getLong(2)).append('/')
                            .append(rs.getLong(3)).append(' ');
                }
            }
            System.out.println("kegdb groups " + groups.toString().trim());
        }
        System.out.println("host calcite parsed "
                + SqlParser.create("SELECT 1 FROM t").parseQuery().getKind()
                + " from " + SqlParser.class.getProtectionDomain().getCodeSource().getLocation());
    }
}
