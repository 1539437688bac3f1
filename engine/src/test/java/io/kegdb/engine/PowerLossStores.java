package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/**
 * The power-loss file layer ({@link PowerLossFiles}) for the tests of other modules, which cannot reach the
 * engine's package-private hook: stores opened here write through one layer, {@link #onSync} hears of
 * every fsync, and {@link #cut} freezes what a power cut at that moment could leave.
 */
public final class PowerLossStores {

    private final PowerLossFiles files = new PowerLossFiles();

    /** Models {@code dir} (empty or not yet created); every store opened here must live in a watched directory. */
    public PowerLossStores watch(Path dir) {
        files.watch(dir);
        return this;
    }

    /** Opens the store in {@code dir} writing through the layer. */
    public Bitcask open(Path dir, BitcaskOptions options) throws IOException {
        return Bitcask.open(dir, options, files);
    }

    /** Runs {@code cut} after every fsync of a file or directory, on the thread that made it. */
    public void onSync(Runnable cut) {
        onSyncAndSampled(0, 0, cut);
    }

    /**
     * Runs {@code cut} after every fsync of a file or directory and after each other change with chance
     * {@code between} (drawn from {@code seed}), on the thread that made it.
     */
    public void onSyncAndSampled(double between, long seed, Runnable cut) {
        Random choice = new Random(seed);
        files.onEvent(e -> {
            boolean sync = e == PowerLossFiles.Event.FILE_SYNC || e == PowerLossFiles.Event.DIRECTORY_SYNC;
            boolean sampled;
            synchronized (choice) {
                sampled = choice.nextDouble() < between;
            }
            if (sync || sampled) {
                cut.run();
            }
        });
    }

    /** What a power cut now could leave. */
    public Cut cut() {
        return new Cut(files.snapshot());
    }

    /** One moment's model, from which disk images are drawn. */
    public static final class Cut {
        private final PowerLossFiles.Snapshot snapshot;

        private Cut(PowerLossFiles.Snapshot snapshot) {
            this.snapshot = snapshot;
        }

        /**
         * Writes one image into {@code target}: only the fsynced state when {@code onlySynced}, else drawn
         * with {@code seed}. Returns each watched directory's copy in the image.
         */
        public Map<Path, Path> writeImage(Path target, long seed, boolean onlySynced) throws IOException {
            return snapshot.writeImage(target, new Random(seed),
                    onlySynced ? PowerLossFiles.Fate.LOSE_ALL : PowerLossFiles.Fate.RANDOM);
        }
    }
}
