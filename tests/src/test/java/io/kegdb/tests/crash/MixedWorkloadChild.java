package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The process {@link CrashLoopTest} kills: a seeded random mix, forever, of engine SYNC and NO_SYNC puts,
 * SYNC deletes, atomic batches (putting fresh keys and deleting an earlier batch's), merges and hot backups
 * on one store, and JDBC transactions (autocommitted multi-row INSERTs, explicit transactions that insert
 * and delete, then commit or roll back) on a second store through the driver with durability=sync.
 *
 * <p>Before each operation it prints what the operation will do, in full; after the call returns it prints
 * {@code <seq> OK}. Each key is written by one kind of operation only, so the expected content is exact:
 * <pre>
 * seq PUT SYNC|NOSYNC key len       key := value(key, seq, len); keys s/N (SYNC) and n/N (NO_SYNC)
 * seq DEL key                       SYNC delete of a key s/N
 * seq BATCH SYNC|NOSYNC n len dels  puts b/seq/0 .. b/seq/{n-1} := value(key, seq, len), deletes dels
 * seq MERGE                         Bitcask.merge()
 * seq BACKUP path                   Bitcask.backup(path)
 * seq TXN AUTO|COMMIT|ROLLBACK n len dels   rows t/seq/j := value(key, seq, len), rows dels deleted
 * </pre>
 * {@code dels} is a comma-separated key list or {@code -}. Arguments: store directory, SQL directory,
 * backup directory, round, seed.
 */
public final class MixedWorkloadChild {

    static final int SLOTS = 48;

    private MixedWorkloadChild() {
    }

    static String value(String key, long seq, int len) {
        return key + "@" + seq + ":" + "v".repeat(len);
    }

    static BitcaskOptions storeOptions() {
        return BitcaskOptions.builder().segmentSize(64 << 10).mergeInterval(Duration.ZERO).build();
    }

    static String sqlUrl(Path dir) {
        return "jdbc:kegdb:" + dir + "?durability=sync&segmentSize=64k&mergeInterval=0";
    }

    public static void main(String[] args) throws Exception {
        Path storeDir = Path.of(args[0]);
        Path sqlDir = Path.of(args[1]);
        Path backups = Path.of(args[2]);
        long round = Long.parseLong(args[3]);
        Random rnd = new Random(Long.parseLong(args[4]));
        try (Bitcask db = Bitcask.open(storeDir, storeOptions());
             Connection c = DriverManager.getConnection(sqlUrl(sqlDir))) {
            List<List<String>> batches = groups(db);
            List<List<String>> txns = groups(c);
            System.out.println("OPEN");
            System.out.flush();
            for (long i = 0; ; i++) {
                long seq = round * 1_000_000 + i;
                int op = rnd.nextInt(100);
                int len = rnd.nextInt(400);
                if (op < 25 || op >= 85) {
                    String key = "s/" + rnd.nextInt(SLOTS);
                    announce(seq, "PUT SYNC " + key + " " + len);
                    db.put(b(key), b(value(key, seq, len)), Durability.SYNC);
                } else if (op < 40) {
                    String key = "n/" + rnd.nextInt(SLOTS);
                    announce(seq, "PUT NOSYNC " + key + " " + len);
                    db.put(b(key), b(value(key, seq, len)), Durability.NO_SYNC);
                } else if (op < 45) {
                    String key = "s/" + rnd.nextInt(SLOTS);
                    announce(seq, "DEL " + key);
                    db.delete(b(key), Durability.SYNC);
                } else if (op < 60) {
                    batch(db, rnd, seq, len, batches);
                } else if (op < 82) {
                    transaction(c, rnd, seq, len, txns);
                } else if (op < 84) {
                    announce(seq, "MERGE");
                    db.merge();
                } else {
                    Path target = backups.resolve("backup-" + seq);
                    announce(seq, "BACKUP " + target);
                    db.backup(target);
                }
                System.out.println(seq + " OK");
                System.out.flush();
            }
        }
    }

    private static void batch(Bitcask db, Random rnd, long seq, int len, List<List<String>> live) {
        boolean sync = rnd.nextInt(3) > 0;
        // Now and then a batch large enough for the engine's large-batch path, where the fsync runs on another
        // thread while the writer updates the keydir.
        int n = rnd.nextInt(8) == 0 ? 128 + rnd.nextInt(300) : 2 + rnd.nextInt(7);
        List<String> dels = !live.isEmpty() && rnd.nextInt(5) < 3 ? live.remove(rnd.nextInt(live.size())) : List.of();
        List<String> keys = new ArrayList<>();
        WriteBatch batch = new WriteBatch();
        for (int j = 0; j < n; j++) {
            String key = "b/" + seq + "/" + j;
            keys.add(key);
            batch.put(b(key), b(value(key, seq, len)));
        }
        for (String key : dels) {
            batch.delete(b(key));
        }
        announce(seq, "BATCH " + (sync ? "SYNC " : "NOSYNC ") + n + " " + len + " " + list(dels));
        db.write(batch, sync ? Durability.SYNC : Durability.NO_SYNC);
        live.add(keys);
    }

    private static void transaction(Connection c, Random rnd, long seq, int len, List<List<String>> live)
            throws Exception {
        int kind = rnd.nextInt(3);
        int n = 1 + rnd.nextInt(6);
        List<String> keys = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            keys.add("t/" + seq + "/" + j);
        }
        if (kind == 0) {
            announce(seq, "TXN AUTO " + n + " " + len + " -");
            StringBuilder sql = new StringBuilder("INSERT INTO KV VALUES ");
            for (int j = 0; j < n; j++) {
                sql.append(j == 0 ? "(?, ?)" : ", (?, ?)");
            }
            try (PreparedStatement ins = c.prepareStatement(sql.toString())) {
                for (int j = 0; j < n; j++) {
                    ins.setString(2 * j + 1, keys.get(j));
                    ins.setString(2 * j + 2, value(keys.get(j), seq, len));
                }
                ins.executeUpdate();
            }
            live.add(keys);
            return;
        }
        boolean commit = kind == 1;
        List<String> dels = !live.isEmpty() && rnd.nextBoolean() ? live.get(rnd.nextInt(live.size())) : List.of();
        announce(seq, "TXN " + (commit ? "COMMIT " : "ROLLBACK ") + n + " " + len + " " + list(dels));
        c.setAutoCommit(false);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)");
             PreparedStatement del = c.prepareStatement("DELETE FROM KV WHERE K = ?")) {
            for (String key : keys) {
                ins.setString(1, key);
                ins.setString(2, value(key, seq, len));
                ins.executeUpdate();
            }
            for (String key : dels) {
                del.setString(1, key);
                del.executeUpdate();
            }
            if (commit) {
                c.commit();
                live.remove(dels);
                live.add(keys);
            } else {
                c.rollback();
            }
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** The batches in the store, grouped by batch (a batch is all there or not at all). */
    private static List<List<String>> groups(Bitcask db) {
        Map<String, List<String>> byBatch = new LinkedHashMap<>();
        try (KvIterator it = db.scan(b("b/"), b("b0"))) {
            while (it.hasNext()) {
                String key = new String(it.next().key(), StandardCharsets.UTF_8);
                byBatch.computeIfAbsent(key.substring(0, key.lastIndexOf('/')), k -> new ArrayList<>()).add(key);
            }
        }
        return new ArrayList<>(byBatch.values());
    }

    /** The committed transactions' rows in the SQL store, grouped by transaction. */
    private static List<List<String>> groups(Connection c) throws Exception {
        Map<String, List<String>> byTxn = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT K FROM KV")) {
            while (rs.next()) {
                String key = rs.getString(1);
                byTxn.computeIfAbsent(key.substring(0, key.lastIndexOf('/')), k -> new ArrayList<>()).add(key);
            }
        }
        return new ArrayList<>(byTxn.values());
    }

    private static void announce(long seq, String what) {
        System.out.println(seq + " " + what);
        System.out.flush();
    }

    private static String list(List<String> keys) {
        return keys.isEmpty() ? "-" : String.join(",", keys);
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
