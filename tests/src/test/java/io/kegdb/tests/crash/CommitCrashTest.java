package io.kegdb.tests.crash;

import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * kill -9 of a JVM committing JDBC transactions (durability=sync) at random moments, several rounds on one
 * directory: after each reopen every transaction whose commit() returned is there in full, no rolled-back
 * or uncommitted row is, and no transaction is partly visible.
 */
class CommitCrashTest {

    @TempDir
    Path tmp;

    @Test
    void acknowledgedCommitsSurviveKill9() throws Exception {
        Path dir = tmp.resolve("db");
        Random rnd = new Random(11);
        int rounds = Boolean.getBoolean("kegdb.stress") ? 30 : 4;
        int totalAcks = 0;
        for (int round = 0; round < rounds; round++) {
            Set<Integer> acked = new HashSet<>();
            Path ackFile = tmp.resolve("acks-" + round);
            try (ChildProcess child = ChildProcess.start(JdbcCommitterChild.class, tmp.resolve("child-" + round + ".log"),
                    dir.toString(), String.valueOf(round), ackFile.toString())) {
                child.awaitLine("OPEN", 60_000);
                Thread.sleep(300 + rnd.nextInt(700));
                child.kill();
            }
            for (String line : Files.readAllLines(ackFile)) {
                String[] p = line.split(" ");
                if (p.length != 2 || !p[0].equals("ACK")) {
                    // a torn last line is an acknowledgement the kill interrupted: not acknowledged
                    continue;
                }
                acked.add(Integer.parseInt(p[1]));
            }
            totalAcks += acked.size();
            verify(dir, round, acked);
        }
        assertTrue(totalAcks >= rounds, "too few commits acknowledged to prove anything: " + totalAcks);
    }

    private static void verify(Path dir, int round, Set<Integer> acked) throws Exception {
        Map<Integer, Integer> rowsPerTxn = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT K FROM KV WHERE K LIKE 'c" + round + "-%' OR K LIKE 'r" + round + "-%'")) {
            while (rs.next()) {
                String key = rs.getString(1);
                if (key.startsWith("r")) {
                    fail("rolled-back row present after crash: " + key);
                }
                String[] p = key.split("-");
                rowsPerTxn.merge(Integer.parseInt(p[1]), 1, Integer::sum);
            }
        }
        int maxAck = acked.stream().mapToInt(Integer::intValue).max().orElse(-1);
        for (int txn : acked) {
            assertEquals(JdbcCommitterChild.ROWS, rowsPerTxn.getOrDefault(txn, 0), "acknowledged commit " + txn + " lost");
        }
        for (Map.Entry<Integer, Integer> e : rowsPerTxn.entrySet()) {
            assertEquals(JdbcCommitterChild.ROWS, e.getValue(), "transaction " + e.getKey() + " partly visible");
            // Only the transaction in flight at the kill may be present unacknowledged (its commit returned
            // but the ACK line was not written yet); anything later was never committed.
            assertTrue(acked.contains(e.getKey()) || e.getKey() <= nextCommitted(maxAck),
                    "uncommitted transaction " + e.getKey() + " present (round " + round + ", last ack " + maxAck + ")");
        }
        assertTrue(List.copyOf(rowsPerTxn.keySet()).containsAll(acked));
    }

    /** The first committing transaction after {@code txn} (every third one rolls back). */
    private static int nextCommitted(int txn) {
        int next = txn + 1;
        return next % 3 == 2 ? next + 1 : next;
    }
}
