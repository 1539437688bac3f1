package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child process of {@link LogStorageCrashTest}: appends entries with sync on, printing the last index of every
 * acknowledged append, until it is killed (or gives up after a minute, should its parent be gone).
 */
public final class SyncAppenderProcess {

    static final int CONF_EVERY = 100;

    private SyncAppenderProcess() {
    }

    /** The payload of the data entry at {@code index}: deterministic, so the parent can check it. */
    static byte[] payload(long index) {
        return ("payload-" + index + "-" + "x".repeat((int) (index % 300))).getBytes(StandardCharsets.UTF_8);
    }

    /** The entry at {@code index}: a configuration every {@link #CONF_EVERY} indexes, data otherwise. */
    static LogEntry entry(long index) {
        return index % CONF_EVERY == 0
                ? TestLogs.conf(index, 1, "127.0.0.1:" + (index % 50_000 + 1))
                : TestLogs.data(index, 1, payload(index));
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BitcaskLogStorage log = TestLogs.open(dir, new ConfigurationManager());
        long deadline = System.nanoTime() + 60_000_000_000L;
        long next = 1;
        while (System.nanoTime() < deadline) {
            int size = 1 + (int) (next % 7);
            List<LogEntry> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(entry(next + i));
            }
            if (log.appendEntries(batch) != size) {
                System.exit(2);
            }
            next += size;
            out.println(next - 1);
            out.flush();
        }
        log.shutdown();
    }
}
