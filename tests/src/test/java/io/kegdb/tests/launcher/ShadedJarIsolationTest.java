package io.kegdb.tests.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * KegDB's single jar (driver/target/kegdb-jdbc-VERSION-all.jar) next to an application's own libraries: every
 * class in it is KegDB's or SLF4J's API (everything else is relocated under io/kegdb/shaded/), and a JVM with
 * the same Calcite and its Guava placed first on the classpath runs KegDB's planned queries. Maven passes the
 * jar paths (tests/pom.xml).
 */
class ShadedJarIsolationTest {

    private static Path property(String name) {
        String value = System.getProperty(name);
        assertTrue(value != null && !value.isBlank() && !value.contains("${"), "system property " + name + " not set by Maven: " + value);
        Path path = Path.of(value);
        assertTrue(Files.isRegularFile(path), name + ": no file " + path + " (the driver module's package phase builds the jar)");
        return path;
    }

    @Test
    void everyClassIsKegDbsOrSlf4jsApi() throws IOException {
        try (JarFile jar = new JarFile(property("kegdb.shadedJar").toFile())) {
            List<String> foreign = jar.stream().map(ZipEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
                    .filter(n -> !n.startsWith("io/kegdb/") && !n.startsWith("org/slf4j/"))
                    .toList();
            assertEquals(List.of(), foreign, "classes left under their own package names");
            assertEquals(List.of(), jar.stream().map(ZipEntry::getName).filter(n -> n.startsWith("io/kegdb/jdbc/console/")).toList(),
                    "the console has its own jar");
            assertTrue(jar.getEntry("io/kegdb/shaded/org/apache/calcite/rel/RelNode.class") != null, "Calcite is relocated");
            List<String> services = jar.stream().map(ZipEntry::getName)
                    .filter(n -> n.startsWith("META-INF/services/") && !n.endsWith("/")).toList();
            for (String service : services) {
                String name = service.substring("META-INF/services/".length());
                assertTrue(name.startsWith("io.kegdb.") || name.startsWith("java."), "service file not relocated: " + service);
            }
            assertTrue(services.contains("META-INF/services/io.kegdb.shaded.com.alipay.sofa.jraft.JRaftServiceFactory"), services.toString());
        }
    }

    @Test
    void theConsoleJarHoldsOnlyTheConsole() throws IOException {
        try (JarFile jar = new JarFile(property("kegdb.consoleJar").toFile())) {
            List<String> classes = jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
            assertTrue(classes.contains("io/kegdb/jdbc/console/ConsoleMain.class"), classes.toString());
            assertTrue(classes.contains("sqlline/ConsoleSqlLine.class"), classes.toString());
            assertEquals(List.of(), classes.stream()
                    .filter(n -> !n.startsWith("io/kegdb/jdbc/console/") && !n.startsWith("sqlline/")).toList());
        }
    }

    @Test
    void applicationsOwnCalciteFirstOnTheClasspath(@TempDir Path dir) throws Exception {
        String classpath = String.join(File.pathSeparator,
                property("kegdb.test.calciteJar").toString(),
                property("kegdb.test.calciteLinq4jJar").toString(),
                property("kegdb.test.avaticaJar").toString(),
                property("kegdb.test.guavaJar").toString(),
                property("kegdb.test.failureAccessJar").toString(),
                property("kegdb.shadedJar").toString(),
                Path.of(HostWithOwnCalcite.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classpath, HostWithOwnCalcite.class.getName())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("child JVM did not finish in 120 s");
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), "child failed:\n" + stdout + stderr);
        List<String> lines = stdout.lines().toList();
        assertEquals(3, lines.size(), stdout + stderr);
        assertEquals("host calcite parsed SELECT", lines.get(0));
        assertEquals("kegdb groups g0=2/9 g1=1/4 g2=2/7", lines.get(1));
        assertTrue(lines.get(2).startsWith("host calcite parsed SELECT from ") && lines.get(2).contains("calcite-core"), lines.get(2));
    }
}
