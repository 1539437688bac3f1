package io.kegdb.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the seed-workload runner at 10k keys to prove every workload works end to end; no timing asserted. */
class SeedWorkloadsSmokeTest {

    @TempDir
    Path dir;

    @Test
    void peersRunTheSeedTableAndLeaveNoFilesBehind() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RunnerOptions options = RunnerOptions.parse("--workloads", "10k:8:128,5k:16:512", "--engines", "rocksdb,lmdb",
                "--parts", "seed", "--warmup-keys", "2k", "--quiet", "--dir", dir.toString());
        List<SeedResult> results = new SeedWorkloads(options, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err).run();

        assertEquals(4, results.size());
        for (SeedResult r : results) {
            assertTrue(r.putNanos() > 0 && r.getNanos() > 0 && r.reopenNanos() > 0, r.toString());
            assertTrue(r.diskBytes() >= r.workload().keys() * (long) r.workload().valueSize() / 2,
                    "store files too small to hold the data: " + r);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("| 10k:8:128 | RocksDB |"), report);
        assertTrue(report.contains("| 5k:16:512 | LMDB |"), report);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "scratch directories left behind");
        }
    }

    @Test
    void kegdbRunsEveryPartWithRatiosToAPeer() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RunnerOptions options = RunnerOptions.parse("--workloads", "10k:8:128", "--engines", "kegdb,lmdb",
                "--warmup-keys", "0", "--phase-seconds", "0.2", "--merge-keys", "10k", "--quiet",
                "--dir", dir.toString());
        List<SeedResult> results = new SeedWorkloads(options, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err).run();

        assertEquals(2, results.size());
        SeedResult kegdb = results.get(0);
        assertEquals(Engine.KEGDB, kegdb.engine());
        assertTrue(kegdb.reportedMemoryBytes() > 0, "KegDB reports its keydir: " + kegdb);
        String report = out.toString(StandardCharsets.UTF_8);
        for (String expected : List.of("| 10k:8:128 | KegDB |", "| put KegDB/LMDB | get KegDB/LMDB |",
                "| fsync floor: append", "| KegDB put SYNC, 1 writer |", "| 64 |",
                "| put NO_SYNC, merge running |", "Merge took")) {
            assertTrue(report.contains(expected), "missing '" + expected + "' in\n" + report);
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "scratch directories left behind");
        }
    }
}
