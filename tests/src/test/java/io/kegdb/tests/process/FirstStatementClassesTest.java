package io.kegdb.tests.process;

import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a fresh JVM pays before its first planned statement: opening a connection and answering a point
 * query load no class of the SQL planner (Calcite, apart from the enumerator interfaces of its linq4j that
 * results are read through) or its compiler (Janino); the first statement Calcite
 * plans loads them. Watched with {@code -verbose:class} in a child JVM running the product's single jar
 * (as an application would: on the plain jars, DriverManager's scan of every JDBC driver on the class path
 * would load Calcite's own driver first).
 */
class FirstStatementClassesTest {

    private static final List<String> PLANNER_PACKAGES = List.of("org.apache.calcite.", "org.codehaus.janino.",
            "org.codehaus.commons.compiler.");

    @TempDir
    Path tmp;

    @Test
    void connectingAndAPointQueryLoadNoPlannerClass() throws Exception {
        List<String> beforePlanning = new ArrayList<>();
        List<String> planning = new ArrayList<>();
        String classPath = System.getProperty("kegdb.shadedJar") + File.pathSeparator
                + Path.of(FirstStatementsChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (ChildProcess child = ChildProcess.start(List.of("-verbose:class"), classPath,
                FirstStatementsChild.class, tmp.resolve("child.log"), tmp.resolve("db").toString())) {
            List<String> current = beforePlanning;
            for (String line : child.drain(120_000)) {
                if (line.equals("POINT QUERY DONE")) {
                    current = planning;
                } else if (line.contains("[class,load]") && planner(line)) {
                    current.add(line);
                }
            }
            assertEquals(0, child.waitFor(30_000));
        }
        assertTrue(beforePlanning.isEmpty(), "loaded before the first planned statement: "
                + beforePlanning.subList(0, Math.min(10, beforePlanning.size())));
        // The watch itself works: the planned statement does load them.
        assertFalse(planning.isEmpty(), "no planner class seen at all: is -verbose:class still printing?");
    }

    private static boolean planner(String line) {
        if (line.contains("org.apache.calcite.linq4j.")) {
            return false; // the enumerator interfaces results are read through: a few small classes, no planner
        }
        for (String p : PLANNER_PACKAGES) {
            if (line.contains(p)) { // relocated in the single jar: io.kegdb.shaded.org.apache.calcite...
                return true;
            }
        }
        return false;
    }
}
