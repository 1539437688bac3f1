package io.kegdb.tests.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The interactive {@code ./kegdb sql} execs Java on every run, the first one on a set of jars included, so a
 * signal to the launcher's process reaches the JVM; the class-data archive the first JVM writes at its exit is
 * put in place by the next run. The launcher runs in a scratch tree on a terminal ({@code script}), with a
 * {@code java} that records its parent process and its options and, like the JVM, writes the archive it is
 * asked for when it exits.
 */
class InteractiveExecTest {

    @TempDir
    Path tree;

    @Test
    void everyInteractiveRunExecsJavaAndTheFirstRunsArchiveIsUsedNext() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs util-linux script for a terminal");
        Path script = Files.copy(Launcher.REPO_SCRIPT, tree.resolve("kegdb"));
        Files.copy(Launcher.REPO_SCRIPT.resolveSibling("pom.xml"), tree.resolve("pom.xml"));
        String version = Files.readString(tree.resolve("pom.xml"))
                .replaceAll("(?s).*?<artifactId>kegdb-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        Files.createDirectories(tree.resolve("driver/target/console"));
        for (String jar : List.of("kegdb-jdbc-" + version + "-console.jar", "kegdb-jdbc-" + version + "-all.jar",
                "console/sqlline-jar-with-dependencies.jar", "console/slf4j-simple.jar")) {
            Files.writeString(tree.resolve("driver/target").resolve(jar), "jar");
        }
        Path log = tree.resolve("java.log");
        Path java = tree.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/usr/bin/env bash\n"
                + "echo \"parent=$(tr '\\0' ' ' < /proc/$PPID/cmdline) args=$*\" >> '" + log + "'\n"
                + "for a in \"$@\"; do case \"$a\" in -XX:ArchiveClassesAtExit=*) echo archive > \"${a#*=}\";; esac; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (int run = 0; run < 2; run++) {
            ProcessBuilder pb = new ProcessBuilder("/usr/bin/script", "-q", "-e", "-c",
                    "bash '" + script + "' sql '" + tree.resolve("db") + "'", "/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(tree.resolve("out" + run).toFile()).redirectErrorStream(true);
            pb.environment().put("JAVA", java.toString());
            pb.environment().put("KEGDB_SKIP_BUILD", "1");
            Process p = pb.start();
            p.getOutputStream().close();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher hung");
            assertEquals(0, p.exitValue(), Files.readString(tree.resolve("out" + run)));
        }
        List<String> runs = Files.readAllLines(log);
        assertEquals(2, runs.size(), runs.toString());
        for (String r : runs) {
            // not exec'ed, java's parent would be the launcher's bash ("bash <script> sql <dir>")
            assertFalse(r.startsWith("parent=bash " + script), "java was exec'ed by the launcher: " + r);
        }
        assertTrue(runs.get(0).contains("-XX:ArchiveClassesAtExit="), runs.get(0));
        assertFalse(runs.get(0).contains("-XX:SharedArchiveFile="), runs.get(0));
        assertTrue(runs.get(1).contains("-XX:SharedArchiveFile="), "the first run's archive is used: " + runs.get(1));
        assertFalse(runs.get(1).contains("-XX:ArchiveClassesAtExit="), runs.get(1));
        try (var files = Files.list(tree.resolve(".kegdb/cds"))) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertEquals(1, names.size(), names.toString());
            assertTrue(names.get(0).endsWith(".jsa"), names.toString());
        }
    }
}
