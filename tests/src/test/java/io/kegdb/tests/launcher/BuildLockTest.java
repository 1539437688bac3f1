package io.kegdb.tests.launcher;

import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three {@code ./kegdb} started at once on a tree that was never built build it once: the launcher script is
 * copied into a scratch tree whose {@code mvn} takes two seconds and records whether two ran at the same time.
 */
class BuildLockTest {

    @TempDir
    Path tree;

    private Path executable(String name, String body) throws Exception {
        Path p = tree.resolve("bin").resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/usr/bin/env bash\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void concurrentFirstRunsBuildOnceAndQuietly() throws Exception {
        Path script = Files.copy(Launcher.REPO_SCRIPT, tree.resolve("kegdb"));
        Files.copy(Launcher.REPO_SCRIPT.resolveSibling("pom.xml"), tree.resolve("pom.xml"));
        Files.createDirectories(tree.resolve("engine/src"));
        String version = new String(Files.readAllBytes(tree.resolve("pom.xml")))
                .replaceAll("(?s).*?<artifactId>kegdb-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        // mvn: fails the build if another one runs, else writes the engine jar after 2 s
        Path mvn = executable("mvn", "mkdir \"" + tree + "/running\" || { echo overlap >> \"" + tree + "/builds\"; exit 1; }\n"
                + "echo build >> \"" + tree + "/builds\"; sleep 2; mkdir -p engine/target;"
                + " echo jar > engine/target/kegdb-engine-" + version + ".jar; rmdir \"" + tree + "/running\"\n");
        Path java = executable("java", "echo ran\n");
        Map<String, String> env = Map.of("PATH", mvn.getParent() + ":" + System.getenv("PATH"), "JAVA", java.toString());
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(Launcher.start(script, env, "check", tree.toString()));
        }
        List<Run> results = new ArrayList<>();
        for (Process p : runs) {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a launcher hung");
            results.add(Launcher.result(p));
        }
        for (Run r : results) {
            assertEquals(0, r.exit(), r.err());
            assertEquals("ran\n", r.out());
        }
        assertEquals(List.of("build"), Files.readAllLines(tree.resolve("builds")));
        long announcing = results.stream().filter(r -> r.err().contains("building engine")).count();
        assertEquals(1, announcing, "only the builder says it builds: " + results);
        assertTrue(results.stream().allMatch(r -> r.err().isEmpty() || r.err().lines().count() == 1), results.toString());
        assertFalse(Files.exists(tree.resolve(".kegdb/build.lock")), "the lock is released");
    }
}
