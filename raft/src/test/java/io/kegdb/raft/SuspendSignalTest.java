package io.kegdb.raft;

import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A flight recording of a process running a node: the recorder's thread samples reach the JVM, not
 * SOFAJRaft's describe dump (which wrote files into the working directory for every sample).
 */
class SuspendSignalTest {

    @Test
    void aRecordingOfANodeWritesNoDumpFiles(@TempDir Path dir) throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> before = dumps(cwd);
        try (TestCluster cluster = new TestCluster(dir, 1)) {
            cluster.startAll();
            cluster.awaitLeader();
            try (Recording recording = new Recording()) {
                recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
                recording.start();
                long until = System.nanoTime() + 1_500_000_000L, spin = 0;
                while (System.nanoTime() < until) {
                    spin += Long.toString(spin).hashCode(); // a thread in Java code, for the sampler to suspend
                }
                recording.stop();
            }
        }
        List<Path> written = dumps(cwd).stream().filter(p -> !before.contains(p)).toList();
        for (Path p : written) {
            Files.deleteIfExists(p);
        }
        assertEquals(List.of(), written, "SOFAJRaft's SIGUSR2 dump ran during the recording");
    }

    private static List<Path> dumps(Path cwd) throws IOException {
        try (Stream<Path> files = Files.list(cwd)) {
            return files.filter(p -> p.getFileName().toString().matches(
                    "(node_describe|node_metrics|thread_pool_metrics)\\.log\\..*")).toList();
        }
    }
}
