package io.kegdb.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunnerOptionsTest {

    @Test
    void defaultsAreTheSeedTable() {
        RunnerOptions o = RunnerOptions.parse();
        assertEquals(List.of(new Workload(1_000_000, 8, 128), new Workload(1_000_000, 16, 512),
                new Workload(10_000_000, 8, 128)), o.workloads());
        assertEquals(List.of(Engine.KEGDB, Engine.ROCKSDB, Engine.LMDB), o.engines());
        assertEquals(Set.of(RunnerOptions.Part.values()), o.parts());
        assertTrue(o.progress());
    }

    @Test
    void parsesEveryOptionInBothForms() {
        RunnerOptions o = RunnerOptions.parse("--workloads", "10k:8:128,2M:16:512", "--engines=LMDB,kegdb",
                "--parts", "seed,merge", "--dir", "/var/tmp/x", "--seed=9", "--warmup-keys", "0",
                "--phase-seconds", "0.5", "--merge-keys", "50k", "--quiet");
        assertEquals(List.of(new Workload(10_000, 8, 128), new Workload(2_000_000, 16, 512)), o.workloads());
        assertEquals(List.of(Engine.LMDB, Engine.KEGDB), o.engines());
        assertEquals(Set.of(RunnerOptions.Part.SEED, RunnerOptions.Part.MERGE), o.parts());
        assertEquals(Path.of("/var/tmp/x"), o.dir());
        assertEquals(9, o.seed());
        assertEquals(0, o.warmupKeys());
        assertEquals(500_000_000L, o.phaseNanos());
        assertEquals(50_000, o.mergeKeys());
        assertFalse(o.progress());
        assertEquals("2M:16:512", o.workloads().get(1).label());
    }

    @Test
    void badInputNamesTheCulprit() {
        assertMessage("unknown engine 'leveldb'", "--engines", "kegdb,leveldb");
        assertMessage("workload '1M:8' is not COUNT:KEYBYTES:VALUEBYTES", "--workloads", "1M:8");
        assertMessage("keySize 4 outside", "--workloads", "1M:4:128");
        assertMessage("unknown option --bogus", "--bogus", "1");
        assertMessage("option --seed needs a value", "--seed");
        assertMessage("unknown part 'all'", "--parts", "all");
        assertMessage("--phase-seconds 0 outside", "--phase-seconds", "0");
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunnerOptions.parse(args));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
