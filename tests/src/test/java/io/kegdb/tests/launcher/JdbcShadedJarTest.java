package io.kegdb.tests.launcher;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one jar a console user adds (driver/target/kegdb-jdbc-VERSION-all.jar), loaded by a fresh class loader
 * that sees nothing of the test classpath: the driver is found through its service file and runs SQL, both
 * the key-value shapes and Calcite's general planner; Calcite's third-party libraries are relocated.
 */
class JdbcShadedJarTest {

    static Path shadedJar() throws IOException {
        Path target = Path.of(System.getProperty("user.dir")).resolve("../driver/target").normalize();
        List<Path> jars = new ArrayList<>();
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(target, "kegdb-jdbc-*-all.jar")) {
                ds.forEach(jars::add);
            }
        }
        assertEquals(1, jars.size(), "expected one shaded jar in " + target + " (built by the driver module's package phase): " + jars);
        return jars.get(0);
    }

    @Test
    void shadedJarRelocatesThirdPartyLibrariesAndRegistersOnlyKegDb() throws IOException {
        try (JarFile jar = new JarFile(shadedJar().toFile())) {
            List<String> names = jar.stream().map(e -> e.getName()).toList();
            assertTrue(names.contains("io/kegdb/jdbc/KegDriver.class"));
            assertTrue(names.contains("io/kegdb/engine/Bitcask.class"));
            // Micrometer is the application's, never the jar's: the binder is there, Micrometer is not.
            assertTrue(names.contains("io/kegdb/jdbc/KegMeterBinder.class"));
            assertFalse(names.stream().anyMatch(n -> n.contains("micrometer")), "Micrometer is shaded into the jar");
            for (String unrelocated : List.of("com/google/common/", "com/fasterxml/jackson/", "org/apache/commons/lang3/")) {
                assertFalse(names.stream().anyMatch(n -> n.startsWith(unrelocated)), unrelocated + " is not relocated");
            }
            assertTrue(names.stream().anyMatch(n -> n.startsWith("io/kegdb/shaded/com/google/common/")));
            String services = new String(jar.getInputStream(jar.getEntry("META-INF/services/java.sql.Driver"))
                    .readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals("io.kegdb.jdbc.KegDriver", services);
        }
    }

    @Test
    void freshClassLoaderRunsSql() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {shadedJar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Driver driver = null;
            for (Driver d : ServiceLoader.load(Driver.class, loader)) {
                if (d.getClass().getName().equals("io.kegdb.jdbc.KegDriver")) {
                    driver = d;
                }
            }
            assertNotNull(driver, "KegDriver not registered in the shaded jar's services");
            assertSame(loader, driver.getClass().getClassLoader(), "loaded from the shaded jar, not the test classpath");
            try (Connection c = driver.connect("jdbc:kegdb:mem:shaded-jar", new Properties());
                 Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE T (ID BIGINT PRIMARY KEY, NAME VARCHAR)");
                for (int i = 1; i <= 5; i++) {
                    s.executeUpdate("INSERT INTO T VALUES (" + i + ", 'n" + (i % 2) + "')");
                }
                try (ResultSet rs = s.executeQuery("SELECT NAME FROM T WHERE ID = 3")) {
                    assertTrue(rs.next());
                    assertEquals("n1", rs.getString(1));
                }
                try (ResultSet rs = s.executeQuery("SELECT NAME, COUNT(*) AS N FROM T GROUP BY NAME ORDER BY NAME")) {
                    assertTrue(rs.next());
                    assertEquals("n0", rs.getString(1));
                    assertEquals(2, rs.getLong(2));
                    assertTrue(rs.next());
                    assertEquals("n1", rs.getString(1));
                    assertEquals(3, rs.getLong(2));
                    assertFalse(rs.next());
                }
                // The store's MBean was registered without Micrometer anywhere to be loaded.
                javax.management.ObjectName mbean = new javax.management.ObjectName(
                        "io.kegdb:type=Store,name=" + javax.management.ObjectName.quote("mem:shaded-jar"));
                assertTrue(java.lang.management.ManagementFactory.getPlatformMBeanServer().isRegistered(mbean));
            }
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("io.micrometer.core.instrument.MeterRegistry"));
        }
    }
}
