package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.CheckReport;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The crash loop: a child JVM runs {@link MixedWorkloadChild}'s random mix (engine puts, deletes, batches,
 * merges and backups; JDBC transactions) and is killed with SIGKILL at a random moment, round after round
 * on the same two directories, so state accumulates as for an application restarted after each crash.
 * After every kill both stores are reopened and compared, key by key, with the exact expected content:
 * every acknowledged write is there with its latest acknowledged value, nothing else is, the operation in
 * flight at the kill is all there or not at all, no rolled-back row ever appears, and every completed
 * backup opens with the store's image as of the moment it started; and every one of them passes the
 * engine's full consistency check ({@link Bitcask#verify()}).
 *
 * <p>5 rounds in the normal build, 200 with {@code -Pstress} ({@code kegdb.stress=true});
 * {@code -Dkegdb.crash.rounds=N} overrides. The figures are printed at the end.
 */
class CrashLoopTest {

    @TempDir
    Path tmp;

    private final Map<String, Integer> acknowledged = new LinkedHashMap<>();
    private long keysChecked;
    private int backupsChecked;
    private int inFlightApplied;
    private int consistencyChecks;

    @Test
    void everyAcknowledgedWriteSurvivesRepeatedKill9() throws Exception {
        int rounds = Integer.getInteger("kegdb.crash.rounds", Boolean.getBoolean("kegdb.stress") ? 200 : 5);
        long seed = Long.getLong("kegdb.crash.seed", 20261130L);
        Random rnd = new Random(seed);
        Path store = tmp.resolve("store");
        Path sqlStore = tmp.resolve("sql");
        Path backups = tmp.resolve("backups");
        CrashOracle oracle = new CrashOracle();
        long started = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            long childSeed = rnd.nextLong();
            List<String> lines;
            try (ChildProcess child = ChildProcess.start(MixedWorkloadChild.class, tmp.resolve("child-" + round + ".log"),
                    store.toString(), sqlStore.toString(), backups.toString(), String.valueOf(round),
                    String.valueOf(childSeed))) {
                child.awaitLine("OPEN", 120_000);
                Thread.sleep(200 + rnd.nextInt(2300));
                child.kill();
                lines = child.drain(10_000);
            }
            String context = "round " + round + " (seed " + seed + ", child seed " + childSeed + ")";
            CrashOracle.Op inFlight = null;
            Map<Path, Map<String, String>> backupImages = new HashMap<>();
            Map<Path, Map<String, String>> completed = new LinkedHashMap<>();
            for (String line : lines) {
                if (line.endsWith(" OK")) {
                    oracle.apply(inFlight);
                    count(inFlight);
                    if (inFlight.kind().equals("BACKUP")) {
                        Path target = Path.of(inFlight.line().split(" ")[2]);
                        completed.put(target, backupImages.get(target));
                    }
                    inFlight = null;
                } else {
                    inFlight = CrashOracle.parse(line);
                    if (inFlight.kind().equals("BACKUP")) {
                        backupImages.put(Path.of(inFlight.line().split(" ")[2]), oracle.engineSnapshot());
                    }
                }
            }
            try {
                checkEngine(store, oracle, inFlight);
                checkSql(sqlStore, oracle, inFlight);
                for (Map.Entry<Path, Map<String, String>> b : completed.entrySet()) {
                    try (Bitcask copy = Bitcask.open(b.getKey(), MixedWorkloadChild.storeOptions())) {
                        assertConsistent(copy, "backup " + b.getKey().getFileName());
                        CrashOracle.checkImage("backup " + b.getKey().getFileName(), b.getValue(), StoreContents.of(copy));
                    }
                    backupsChecked++;
                }
            } catch (AssertionError e) {
                throw new AssertionError(context + ": " + e.getMessage(), e);
            }
            deleteTree(backups);
        }
        assertTrue(acknowledged.getOrDefault("durable", 0) > rounds,
                "the child acknowledged too few durable writes to prove anything: " + acknowledged);
        System.out.printf("crash loop: %d rounds (kill -9 each) in %d s; acknowledged %s; %d keys/rows compared;"
                        + " %d in-flight operations found applied; %d completed backups verified; %d consistency checks"
                        + " passed; lost = 0%n",
                rounds, (System.nanoTime() - started) / 1_000_000_000L, acknowledged, keysChecked, inFlightApplied,
                backupsChecked, consistencyChecks);
    }

    private void count(CrashOracle.Op op) {
        acknowledged.merge(op.durable() ? "durable" : "other", 1, Integer::sum);
        acknowledged.merge(op.kind() + (op.kind().equals("PUT") || op.kind().equals("BATCH")
                ? (op.durable() ? " SYNC" : " NOSYNC") : ""), 1, Integer::sum);
    }

    private void checkEngine(Path dir, CrashOracle oracle, CrashOracle.Op inFlight) throws IOException {
        try (Bitcask db = Bitcask.open(dir, MixedWorkloadChild.storeOptions())) {
            assertConsistent(db, "store");
            Map<String, String> observed = StoreContents.of(db);
            if (oracle.checkEngine(observed, inFlight)) {
                inFlightApplied++;
            }
            keysChecked += observed.size();
        }
    }

    private void checkSql(Path dir, CrashOracle oracle, CrashOracle.Op inFlight) throws Exception {
        Map<String, String> observed = new HashMap<>();
        try (Connection c = DriverManager.getConnection(MixedWorkloadChild.sqlUrl(dir));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT K, V FROM KV")) {
            while (rs.next()) {
                observed.put(rs.getString(1), rs.getString(2));
            }
        }
        if (oracle.checkSql(observed, inFlight)) {
            inFlightApplied++;
        }
        keysChecked += observed.size();
        try (Bitcask db = Bitcask.open(dir, MixedWorkloadChild.storeOptions())) {
            assertConsistent(db, "SQL store");
        }
    }

    /** The engine's full check: every record's CRC, hints, keydir against replay, live/dead accounting. */
    private void assertConsistent(Bitcask db, String what) throws IOException {
        CheckReport report = db.verify();
        assertTrue(report.ok(), what + " fails the consistency check: " + report.problems());
        consistencyChecks++;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
        }
        for (Path p : paths) {
            Files.delete(p);
        }
    }
}
