package io.kegdb.jdbc;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.PowerLossStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Power cuts under JDBC transactions and autocommitted statements, at both durabilities: the store is opened
 * through the engine's power-loss layer, cut at every fsync and at sampled moments between, and each image is
 * then opened through JDBC from disk, no repair. With {@code durability=sync} an image holds the table as
 * after some prefix of the commits that includes every commit that returned; with {@code durability=nosync}
 * as after some prefix (any, since no commit waited for an fsync): a transaction is never there in part
 * and a later commit never without an earlier one. {@code -Pstress} runs longer workloads.
 */
class PowerLossCommitTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    private static final int COMMITS = STRESS ? 300 : 40;
    private static final AtomicLong CUTS = new AtomicLong();
    private static final AtomicLong IMAGES = new AtomicLong();

    @TempDir
    Path tmp;

    @AfterAll
    static void printFigures() {
        System.out.printf("JDBC power-loss: %d cuts, %d images, 0 returned sync commits lost%n", CUTS.get(),
                IMAGES.get());
    }

    @Test
    void syncCommitsThatReturnedSurvive() throws Exception {
        run("sync", true);
    }

    @Test
    void noSyncCommitsSurviveAsAPrefix() throws Exception {
        run("nosync", false);
    }

    /** An image waiting to be read, with the commits returned and started when it was cut. */
    private record Image(Path dir, int returned, int started, String name) {
    }

    private void run(String durability, boolean synced) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("db")).toRealPath();
        Path images = tmp.resolve("images");
        PowerLossStores stores = new PowerLossStores().watch(dir);
        /** Table contents after commit i (index 0: before the table exists). */
        List<String> states = Collections.synchronizedList(new ArrayList<>());
        List<Image> cutImages = Collections.synchronizedList(new ArrayList<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        int[] started = {0};
        int[] cuts = {0};
        boolean[] stopped = {false};
        Object cutLock = new Object();
        stores.onSyncAndSampled(synced ? 0.002 : 0.02, 31, () -> {
            synchronized (cutLock) {
                if (stopped[0]) {
                    return;
                }
                int returned = states.size() - 1;
                PowerLossStores.Cut cut = stores.cut();
                int n = ++cuts[0];
                CUTS.incrementAndGet();
                for (int i = 0; i < 2; i++) {
                    Path target = images.resolve(n + "-" + i);
                    try {
                        Path image = cut.writeImage(target, n * 1_009L + i, i == 0).get(dir);
                        cutImages.add(new Image(image, Math.max(0, returned), started[0], "cut " + n + " image " + i));
                    } catch (IOException | RuntimeException e) {
                        failures.add("cut " + n + " image " + i + ": " + e);
                    }
                }
            }
        });
        StoreRegistry.EngineOpener previous = StoreRegistry.instance().openEnginesWith(
                (d, options) -> d.equals(dir) ? stores.open(d, options) : Bitcask.open(d, options));
        String url = "jdbc:kegdb:" + dir + "?segmentSize=64k&mergeInterval=0&durability=" + durability;
        try (Connection c = DriverManager.getConnection(url)) {
            states.add(contents(c));
            Random rnd = new Random(32);
            commit(c, started, states, s -> s.executeUpdate("CREATE TABLE T (ID BIGINT PRIMARY KEY, V BIGINT)"));
            int nextId = 0;
            for (int i = 0; i < COMMITS; i++) {
                int first = nextId;
                nextId += 1 + rnd.nextInt(4);
                int last = nextId;
                int touched = first == 0 ? 0 : rnd.nextInt(first);
                if (i % 3 == 0) {
                    // an autocommitted multi-row statement
                    StringBuilder insert = new StringBuilder("INSERT INTO T VALUES ");
                    for (int id = first; id < last; id++) {
                        insert.append(id == first ? "" : ", ").append('(').append(id).append(", ").append(i).append(')');
                    }
                    commit(c, started, states, s -> s.executeUpdate(insert.toString()));
                } else {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        for (int id = first; id < last; id++) {
                            s.executeUpdate("INSERT INTO T VALUES (" + id + ", " + i + ")");
                        }
                        s.executeUpdate("UPDATE T SET V = V + 1000 WHERE ID = " + touched);
                        if (rnd.nextInt(4) == 0) {
                            s.executeUpdate("DELETE FROM T WHERE ID = " + rnd.nextInt(last));
                        }
                        started[0]++;
                        c.commit();
                        states.add(contents(c));
                    }
                    c.setAutoCommit(true);
                }
            }
        } finally {
            synchronized (cutLock) {
                stopped[0] = true;
            }
            StoreRegistry.instance().openEnginesWith(previous);
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " image(s) failed, first: " + failures.get(0));
        assertTrue(!cutImages.isEmpty(), "the workload was cut");
        for (Image image : cutImages) {
            String seen;
            try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + image.dir() + "?segmentSize=64k")) {
                seen = contents(c);
            }
            int from = synced ? image.returned() : 0;
            List<String> allowed = states.subList(from, Math.min(states.size(), image.started() + 1));
            assertTrue(allowed.contains(seen), () -> image.name() + " (" + durability + ") shows " + seen
                    + ", not the table after " + from + " or more of the first " + image.started() + " commits");
            IMAGES.incrementAndGet();
        }
    }

    private interface Work {
        void run(Statement s) throws SQLException;
    }

    /** One autocommitted statement, counted as a commit. */
    private static void commit(Connection c, int[] started, List<String> states, Work work) throws SQLException {
        try (Statement s = c.createStatement()) {
            started[0]++;
            work.run(s);
        }
        states.add(contents(c));
    }

    /** The table's rows in key order, or that it does not exist. */
    private static String contents(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            try (ResultSet tables = c.getMetaData().getTables(null, null, "T", null)) {
                if (!tables.next()) {
                    return "no table";
                }
            }
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SELECT ID, V FROM T ORDER BY ID")) {
                while (rs.next()) {
                    out.append(rs.getLong(1)).append('=').append(rs.getLong(2)).append(' ');
                }
            }
            return out.toString();
        }
    }
}
