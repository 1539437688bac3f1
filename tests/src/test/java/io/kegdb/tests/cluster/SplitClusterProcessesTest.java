package io.kegdb.tests.cluster;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.RaftGroupClient;
import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftStatus;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.SplitCommand;
import io.kegdb.sql.StoredTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three {@code ./kegdb node} processes started with {@code --split-keys}: a table loaded over JDBC, split by hand
 * with {@code ./kegdb cluster split --table T --at VALUE}, then split by size once more rows make a range too
 * large; after each step, and after a node is killed and restarted (and made leader of every range, so that it
 * serves what is read), every row is there once and unchanged, read range by range and by SQL across the
 * ranges, and {@code SYS.RANGES} lists the ranges with their bounds, generations and leaders.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SplitClusterProcessesTest {

    private static final String GROUP = "splits";
    /** More than the 300 rows loaded first (and the catalog's keys), fewer than the 800 of the end. */
    private static final int SPLIT_KEYS = 400;

    @TempDir
    Path dir;

    private NodeCluster cluster;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private KvStore groupClient(String group) {
        KvStore c = RaftGroupClient.connect(group, String.join(",", cluster.nodes()), Duration.ofSeconds(20));
        open.add(c);
        return c;
    }

    /** {@code ./kegdb ARGS...}: its exit code, its output in {@code log}. */
    private int kegdb(Path log, String... args) throws Exception {
        Process p = NodeCluster.launcher(List.of(args), log).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "kegdb " + String.join(" ", args));
        return p.exitValue();
    }

    @Test
    void splitByHandAndBySizeKeepEveryPairInItsRangeAcrossARestart() throws Exception {
        cluster = NodeCluster.onLoopback(dir, GROUP, 3)
                .nodeOptions(i -> List.of("--split-keys", Integer.toString(SPLIT_KEYS), "--split-check-secs", "1"));
        cluster.startAll();
        Connection sql = ClusterSql.connectWhenUp(cluster.url(""));
        open.add(sql);
        try (Statement s = sql.createStatement()) {
            s.executeUpdate("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
        }
        insert(sql, 1, 300);
        TreeMap<Long, String> rows = expected(1, 300);
        KvStore meta = groupClient(GROUP);
        StoredTable table = StoredTable.find(meta, "T");
        assertEquals(1, awaitRanges(meta, 1).size(), "one range before any split");

        // by hand, at a key value of the table: its store key is made by the SQL key encoding
        Path log = dir.resolve("split.log");
        assertEquals(2, kegdb(log, "cluster", "split", "--group", GROUP, "--peers", String.join(",", cluster.nodes()),
                "--table", "t", "--at", "not-a-number"), Files.readString(log));
        assertTrue(Files.readString(log).contains("is not a key of PUBLIC.T"), Files.readString(log));
        assertEquals(0, kegdb(log, "cluster", "split", "--group", GROUP, "--peers", String.join(",", cluster.nodes()),
                "--table", "t", "--at", "150"), Files.readString(log));
        assertTrue(Files.readString(log).contains("split range 1 (group " + GROUP + ") at"), Files.readString(log));
        List<RangeDescriptor> ranges = awaitRanges(meta, 2);
        byte[] at = table.key(150L);
        assertEquals(RangeDescriptor.printable(at), ClusterSql.sysRanges(sql).get(0).get(2), "range 1 ends at K = 150");
        assertEquals(2L, ClusterSql.sysRanges(sql).get(1).get(0));
        assertArrayEquals(at, ranges.get(1).start());
        checkRows(sql, meta, table, rows, ranges);

        // by size: 500 more rows below 150 make range 1 larger than --split-keys; it splits at its middle key
        insert(sql, -500, -1);
        rows.putAll(expected(-500, -1));
        ranges = awaitRanges(meta, 3);
        checkRows(sql, meta, table, rows, ranges);
        List<List<Object>> listed = ClusterSql.sysRanges(sql);
        assertEquals(3, listed.size(), listed.toString());
        List<RangeDescriptor> byId = new ArrayList<>(ranges);
        byId.sort(java.util.Comparator.comparingLong(RangeDescriptor::id)); // SYS.RANGES is ordered by ID here
        for (int i = 0; i < 3; i++) {
            RangeDescriptor d = byId.get(i);
            List<Object> row = listed.get(i);
            assertEquals(d.id(), row.get(0));
            assertEquals(RangeDescriptor.printable(d.start()), row.get(1));
            assertEquals(d.end() == null ? null : RangeDescriptor.printable(d.end()), row.get(2));
            assertEquals(d.generation(), row.get(3));
            assertTrue(cluster.nodes().contains((String) row.get(6)), "each range's own leader: " + row);
        }

        // a node killed and restarted holds every range again, and serves each once it leads it
        cluster.kill(0);
        cluster.start(0);
        String restarted = cluster.nodes().get(0);
        for (RangeDescriptor d : ranges) {
            String group = SplitCommand.groupOf(GROUP, d.id());
            awaitLeads(group, restarted, dir.resolve("transfer.log"));
        }
        checkRows(sql, meta, table, rows, awaitRanges(meta, 3));
        List<List<Object>> after = ClusterSql.sysRanges(sql);
        for (int i = 0; i < 3; i++) {
            assertEquals(listed.get(i).subList(0, 6), after.get(i).subList(0, 6), "the same ranges after the restart");
            assertEquals(restarted, after.get(i).get(6), "every range led by the restarted node");
        }
    }

    private static void insert(Connection sql, long from, long to) throws Exception {
        sql.setAutoCommit(false);
        try (PreparedStatement p = sql.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
            for (long k = from; k <= to; k++) {
                p.setLong(1, k);
                p.setString(2, "v" + k);
                p.addBatch();
            }
            p.executeBatch();
        }
        sql.commit();
        sql.setAutoCommit(true);
    }

    private static TreeMap<Long, String> expected(long from, long to) {
        TreeMap<Long, String> rows = new TreeMap<>();
        for (long k = from; k <= to; k++) {
            rows.put(k, "v" + k);
        }
        return rows;
    }

    /** The descriptors in the meta range, once there are {@code count} of them, in key order. */
    private static List<RangeDescriptor> awaitRanges(KvStore meta, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            List<RangeDescriptor> found = new ArrayList<>();
            try (KvIterator it = meta.scan(MetaKeys.descriptorKey(new byte[0]), MetaKeys.descriptorsEnd())) {
                it.forEachRemaining(kv -> found.add(RangeDescriptor.decode(kv.value())));
            }
            if (found.size() == count) {
                return found;
            }
            assertTrue(System.nanoTime() < deadline, "expected " + count + " ranges, the meta range has " + found);
            Thread.sleep(200);
        }
    }

    /**
     * Every row exactly once and unchanged: read range by range through the cluster's store (each range's span
     * routed to that range's group, which refuses any key outside its bounds), and by SQL over all of them.
     */
    private static void checkRows(Connection sql, KvStore store, StoredTable table, TreeMap<Long, String> rows,
                                  List<RangeDescriptor> ranges) throws Exception {
        Map<Long, String> found = new TreeMap<>();
        for (RangeDescriptor d : ranges) {
            byte[] from = max(d.start(), table.prefix());
            byte[] to = d.end() == null ? table.prefixEnd() : min(d.end(), table.prefixEnd());
            if (Arrays.compareUnsigned(from, to) >= 0) {
                continue;
            }
            try (KvIterator it = store.scan(from, to)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    long k = (Long) table.decodeKey(kv.key());
                    String previous = found.put(k, (String) table.decodeValue(kv.value()));
                    assertEquals(null, previous, "row " + k + " read twice");
                }
            }
        }
        assertEquals(rows, found);
        try (Statement s = sql.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(K), MAX(K), SUM(K) FROM T")) {
            assertTrue(rs.next());
            assertEquals(rows.size(), rs.getLong(1));
            assertEquals(rows.firstKey(), rs.getLong(2));
            assertEquals(rows.lastKey(), rs.getLong(3));
            assertEquals(rows.keySet().stream().mapToLong(Long::longValue).sum(), rs.getLong(4));
        }
        try (PreparedStatement p = sql.prepareStatement("SELECT V FROM T WHERE K = ?")) {
            for (long k : rows.keySet()) {
                if (k % 50 != 0 && k != rows.firstKey() && k != rows.lastKey()) {
                    continue; // a sample of points, on both sides of every split
                }
                p.setLong(1, k);
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next(), "row " + k);
                    assertEquals(rows.get(k), rs.getString(1));
                }
            }
        }
    }

    private static byte[] max(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** Moves the leadership of {@code group} to {@code node} ({@code kegdb cluster transfer-leader}) once it is caught up. */
    private void awaitLeads(String group, String node, Path log) throws Exception {
        KvStore client = groupClient(group);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            List<RaftStatus> members = ((RaftGroupView) client).members();
            RaftStatus leader = members.stream().filter(r -> r.role().equals("LEADER")).findFirst().orElse(null);
            RaftStatus self = members.stream().filter(r -> r.node().equals(node)).findFirst().orElse(null);
            if (self != null && self.role().equals("LEADER")) {
                return;
            }
            if (leader != null && self != null && self.appliedIndex() >= leader.commitIndex()
                    && kegdb(log, "cluster", "transfer-leader", "--group", group, "--peers",
                    String.join(",", cluster.nodes()), "--peer", node) == 0) {
                continue; // asked: see that it leads
            }
            assertTrue(System.nanoTime() < deadline, node + " never led " + group + ": " + members);
            Thread.sleep(500);
        }
    }

    private static void assertArrayEquals(byte[] expected, byte[] actual) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual);
    }
}
