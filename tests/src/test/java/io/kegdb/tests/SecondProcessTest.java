package io.kegdb.tests;

import io.kegdb.engine.Bitcask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** One owner per directory across processes; a killed owner leaves no stale lock. */
class SecondProcessTest {

    @TempDir
    Path tmp;

    @Test
    void secondProcessIsRefusedAndKilledOwnerLeavesNoStaleLock() throws Exception {
        Path dir = tmp.resolve("db");
        try (ChildProcess holder = ChildProcess.start(HolderProcess.class, tmp.resolve("holder.log"), dir.toString())) {
            holder.awaitLine("OPEN", 30_000);
            IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir));
            assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
            holder.kill();
        }
        // The lock died with its owner: this process can open now, and then refuses a child.
        try (Bitcask db = Bitcask.open(dir)) {
            try (ChildProcess second = ChildProcess.start(HolderProcess.class, tmp.resolve("second.log"), dir.toString())) {
                String line = second.nextLine(30_000);
                assertNotNull(line);
                assertTrue(line.startsWith("REFUSED") && line.contains("in use by another process"), line);
                assertEquals(0, second.waitFor(30_000));
            }
        }
    }
}
