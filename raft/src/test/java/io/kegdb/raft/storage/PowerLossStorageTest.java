package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.PowerLossStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.kegdb.raft.storage.TestLogs.range;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Power cuts under the Raft storages, at every fsync their store makes (engine writes, rolls, hints, the
 * log's background reclaiming and merges): each image the engine's power-loss layer draws is opened with the
 * shipped storage, from disk, and must hold the state after some prefix of the storage's calls that includes
 * every call that returned. For the meta storage that means term and vote never go back (a node never forgets
 * a vote it cast or a term it saw); for the log, that an append, {@code truncatePrefix}, {@code truncateSuffix}
 * or {@code reset} that returned is there whole, and one still running is there whole or not at all.
 * Segments are small (4 KiB) so that rolls, hints and merges happen. {@code -Pstress} draws more images.
 */
class PowerLossStorageTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    private static final int RANDOM_IMAGES = STRESS ? 10 : 1;
    private static final BitcaskOptions SMALL_SEGMENTS = BitcaskOptions.builder().segmentSize(4096)
            .mergeInterval(Duration.ZERO).build();
    private static final AtomicLong CUTS = new AtomicLong();
    private static final AtomicLong IMAGES = new AtomicLong();

    @TempDir
    Path tmp;

    @AfterAll
    static void printFigures() {
        System.out.printf("raft power-loss: %d cuts, %d images, 0 returned calls lost%n", CUTS.get(), IMAGES.get());
    }

    @Test
    void termAndVoteNeverGoBack() throws Exception {
        Path dir = tmp.resolve("meta");
        Cuts cuts = new Cuts(dir, image -> {
            BitcaskRaftMetaStorage meta = new BitcaskRaftMetaStorage(image.toString(), TestLogs.raftOptions(true));
            if (!meta.init(null)) {
                throw new AssertionError("the meta storage does not open from " + image);
            }
            try {
                return state(meta);
            } finally {
                meta.shutdown();
            }
        });
        AtomicReference<Bitcask> store = new AtomicReference<>();
        BitcaskRaftMetaStorage meta = new BitcaskRaftMetaStorage(dir.toString(), TestLogs.raftOptions(true),
                d -> {
                    store.set(cuts.stores.open(d, SMALL_SEGMENTS));
                    return store.get();
                });
        assertTrue(meta.init(null));
        cuts.returned(state(meta));
        Random rnd = new Random(21);
        for (int term = 1; term <= 60 * (STRESS ? 3 : 1); term++) {
            cuts.starting();
            meta.setTerm(term);
            cuts.returned(state(meta));
            cuts.starting();
            meta.setVotedFor(new PeerId("127.0.0.1", 8000 + rnd.nextInt(3)));
            cuts.returned(state(meta));
            if (term % 20 == 0) {
                store.get().merge(); // what the scheduled merge does to the meta store's history
            }
        }
        cuts.stop();
        meta.shutdown();
        cuts.check();
    }

    @Test
    void aLogCallThatReturnedSurvivesWhole() throws Exception {
        Path dir = tmp.resolve("log");
        Cuts cuts = new Cuts(dir, image -> {
            BitcaskLogStorage log = new BitcaskLogStorage(image.toString(), TestLogs.raftOptions(true), TestLogs.STORES);
            if (!log.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance()))) {
                throw new AssertionError("the log storage does not open from " + image);
            }
            try {
                return state(log);
            } finally {
                log.shutdown();
            }
        });
        BitcaskLogStorage log = new BitcaskLogStorage(dir.toString(), TestLogs.raftOptions(true),
                d -> cuts.stores.open(d, SMALL_SEGMENTS));
        assertTrue(log.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance())));
        cuts.returned(state(log));
        Random rnd = new Random(22);
        long term = 1;
        for (int call = 0; call < 80 * (STRESS ? 3 : 1); call++) {
            long first = log.getFirstLogIndex();
            long last = log.getLastLogIndex();
            int kind = rnd.nextInt(10);
            cuts.starting();
            if (kind < 6 || last < first + 4) {
                log.appendEntries(range(last + 1, last + 1 + rnd.nextInt(8), term));
            } else if (kind < 8) {
                term++;
                log.truncateSuffix(last - 1 - rnd.nextInt(3));
            } else if (kind < 9) {
                log.truncatePrefix(first + 1 + rnd.nextInt(3));
            } else {
                log.reset(last + 2);
            }
            cuts.returned(state(log));
        }
        assertTrue(log.awaitReclaimed(Duration.ofSeconds(20)));
        cuts.stop();
        log.shutdown();
        cuts.check();
    }

    private static String state(BitcaskRaftMetaStorage meta) {
        return "term " + meta.getTerm() + ", vote " + meta.getVotedFor();
    }

    /** First and last index and the term of every entry between: what a restarted node reads of its log. */
    @SuppressWarnings("deprecation") // LogStorage.getTerm, deprecated in SOFAJRaft, is what a node asks
    private static String state(BitcaskLogStorage log) {
        StringBuilder s = new StringBuilder();
        long first = log.getFirstLogIndex();
        long last = log.getLastLogIndex();
        s.append(first).append("..").append(last).append(':');
        for (long i = first; i <= last; i++) {
            s.append(' ').append(log.getTerm(i));
        }
        return s.toString();
    }

    /**
     * The storage's states after each returned call, and the states images showed at each cut, checked
     * once every state is known (a cut in the middle of a call may show the state that call leaves).
     */
    private final class Cuts {
        final PowerLossStores stores;
        final Path images = tmp.resolve("images");
        final Path dir;
        final Function<Path, String> reader;
        /** State after call i (index 0: as opened). */
        final List<String> states = Collections.synchronizedList(new ArrayList<>());
        /** {calls returned, calls started, state seen} per image. */
        final List<Object[]> seen = Collections.synchronizedList(new ArrayList<>());
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        volatile int started;
        volatile boolean stopped;
        int cuts;

        Cuts(Path dir, Function<Path, String> reader) {
            this.dir = dir;
            this.reader = reader;
            this.stores = new PowerLossStores().watch(dir);
            stores.onSync(this::cut);
        }

        void starting() {
            started++;
        }

        void returned(String state) {
            states.add(state);
        }

        void stop() {
            stopped = true;
        }

        private synchronized void cut() {
            if (stopped) {
                return;
            }
            int returned = states.size() - 1; // read before the snapshot: those calls' fsyncs are in it
            PowerLossStores.Cut cut = stores.cut();
            int calls = started;
            cuts++;
            CUTS.incrementAndGet();
            for (int i = 0; i <= RANDOM_IMAGES; i++) {
                long seed = cuts * 1_009L + i;
                Path target = images.resolve(cuts + "-" + i);
                try {
                    Path image = cut.writeImage(target, seed, i == 0).get(dir.toAbsolutePath());
                    seen.add(new Object[] {returned, calls, reader.apply(image), "cut " + cuts + " image " + i});
                    IMAGES.incrementAndGet();
                } catch (IOException | RuntimeException | AssertionError e) {
                    failures.add("cut " + cuts + " image " + i + " (seed " + seed + "): " + e);
                } finally {
                    deleteTree(target);
                }
            }
        }

        void check() {
            assertTrue(failures.isEmpty(), () -> failures.size() + " image(s) failed, first: " + failures.get(0));
            assertTrue(cuts > 0, "the workload was cut");
            for (Object[] s : seen) {
                int returned = Math.max(0, (int) s[0]);
                int calls = (int) s[1];
                List<String> allowed = states.subList(returned, Math.min(states.size(), calls + 1));
                assertTrue(allowed.contains((String) s[2]), () -> s[3] + " shows '" + s[2] + "', not the state after "
                        + returned + " returned calls or a later one: " + allowed);
            }
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
