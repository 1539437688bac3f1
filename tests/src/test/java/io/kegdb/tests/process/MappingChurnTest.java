package io.kegdb.tests.process;

import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mapping the store drops stays in the process until the garbage collector finds it unreachable, and
 * Linux allows a process 65,530 memory areas by default; past that the JVM dies. A child reads and
 * overwrites random keys of a store of about 800 four-KiB segments with four kept mapped, 45,000 times (about
 * one mapping made and one dropped per read), in a heap that needs no collection meanwhile: the store must
 * keep the mappings not yet collected far below that limit (the engine asks for a collection past 16,384).
 */
class MappingChurnTest {

    @TempDir
    Path dir;

    @Test
    @EnabledOnOs(OS.LINUX)
    void droppedMappingsDoNotPileUpTowardsTheProcessLimit() throws Exception {
        try (ChildProcess child = ChildProcess.start(MappingChurnChild.class, dir.resolve("child.log"),
                dir.resolve("db").toString(), "45000")) {
            String line = child.nextLine(120_000);
            assertNotNull(line, "the child printed nothing; see " + dir.resolve("child.log"));
            int most = Integer.parseInt(line.split(" ")[1]);
            // Without the budget this run peaked at 41,400 memory areas; with it, 16,000.
            assertTrue(most < 30_000, "the process had up to " + most + " memory areas during the reads");
        }
    }
}
