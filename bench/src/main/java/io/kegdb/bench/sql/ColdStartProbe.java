package io.kegdb.bench.sql;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.Random;

/**
 * The child side of {@link ColdStart}: run in a fresh JVM on a database {@link ShapeData} loaded, it opens a
 * connection, runs a first point query and a first planned query (GROUP BY on the value), closes, and prints the
 * nanoseconds of each phase on one line: {@code connect point planned close}. Ad hoc texts, as a console's
 * first statements.
 */
public final class ColdStartProbe {

    private ColdStartProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ColdStartProbe <jdbc url> <rows in kv>");
        }
        int rows = Integer.parseInt(args[1]);
        Random random = new Random(3);
        String point = SqlShapes.POINT.adHoc(SqlShapes.POINT.parameters().apply(random, rows));
        String planned = SqlShapes.GROUP_BY_VALUE.adHoc(SqlShapes.GROUP_BY_VALUE.parameters().apply(random, rows));
        long t0 = System.nanoTime();
        Connection c = driverFor(args[0]).connect(args[0], new Properties());
        long t1 = System.nanoTime();
        expectRows(c, point, 1);
        long t2 = System.nanoTime();
        expectRows(c, planned, ShapeData.DISTINCT_VALUES);
        long t3 = System.nanoTime();
        c.close();
        long t4 = System.nanoTime();
        System.out.println((t1 - t0) + " " + (t2 - t1) + " " + (t3 - t2) + " " + (t4 - t3));
    }

    /**
     * The database's own driver, loaded by name: {@code DriverManager} would first load every driver on the
     * classpath (KegDB's, H2's and SQLite's), and each database's start would pay for the others.
     */
    private static Driver driverFor(String url) throws ReflectiveOperationException {
        String name = url.startsWith("jdbc:kegdb:") ? "io.kegdb.jdbc.KegDriver"
                : url.startsWith("jdbc:sqlite:") ? "org.sqlite.JDBC"
                : url.startsWith("jdbc:h2:") ? "org.h2.Driver" : null;
        if (name == null) {
            throw new IllegalArgumentException("no driver known for " + url);
        }
        return (Driver) Class.forName(name).getDeclaredConstructor().newInstance();
    }

    private static void expectRows(Connection c, String sql, int expected) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = 0;
            while (rs.next()) {
                rs.getString(1);
                n++;
            }
            if (n != expected) {
                throw new IllegalStateException(sql + " returned " + n + " rows, expected " + expected);
            }
        }
    }
}
