package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.entity.LogEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A child JVM appends with sync and is killed with SIGKILL; every index it acknowledged is there after reopen. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LogStorageCrashTest {

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedAppendSurvivesKillNine() throws Exception {
        Path log = dir.resolve("log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SyncAppenderProcess.class.getName(), log.toString())
                .redirectError(dir.resolve("child.err").toFile())
                .start();
        long acked = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            long stopAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String line;
            while (acked < 3000 && System.nanoTime() < stopAt && (line = out.readLine()) != null) {
                acked = Long.parseLong(line.trim());
            }
            child.destroyForcibly(); // SIGKILL while it appends: no shutdown hooks, no close
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "child is gone");
        } finally {
            child.destroyForcibly();
        }
        assertTrue(acked > 0, "the child acknowledged appends before it was killed; see " + dir.resolve("child.err"));

        TestLogs.RecordingConfigurations confs = new TestLogs.RecordingConfigurations();
        BitcaskLogStorage reopened = TestLogs.open(log, confs);
        try {
            assertEquals(1, reopened.getFirstLogIndex());
            assertTrue(reopened.getLastLogIndex() >= acked,
                    "last index " + reopened.getLastLogIndex() + " covers acknowledged " + acked);
            for (long i = 1; i <= acked; i++) {
                LogEntry e = reopened.getEntry(i);
                assertNotNull(e, "acknowledged entry " + i);
                LogEntry expected = SyncAppenderProcess.entry(i);
                assertEquals(expected.getType(), e.getType(), "type of " + i);
                if (i % SyncAppenderProcess.CONF_EVERY != 0) {
                    byte[] got = new byte[e.getData().remaining()];
                    e.getData().duplicate().get(got);
                    assertArrayEquals(SyncAppenderProcess.payload(i), got, "payload of " + i);
                }
            }
            long confsAcked = acked / SyncAppenderProcess.CONF_EVERY;
            assertTrue(confs.added.size() >= confsAcked, confs.added.size() + " configurations replayed");
            for (int k = 0; k < confsAcked; k++) {
                assertEquals((k + 1L) * SyncAppenderProcess.CONF_EVERY, confs.added.get(k));
            }
        } finally {
            reopened.shutdown();
        }
    }
}
