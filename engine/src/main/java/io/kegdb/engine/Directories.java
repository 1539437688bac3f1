package io.kegdb.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** fsync of a directory, so that file creations, renames and deletions in it survive a crash. */
final class Directories {

    private Directories() {
    }

    /**
     * Creates {@code dir} and any missing parents, each durably (its parent fsynced through {@code files}):
     * a store or backup directory whose own entry a power cut could drop would take every synced write in it
     * along.
     */
    static void createDurably(FileLayer files, Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createDurably(files, parent);
        }
        Files.createDirectories(absolute);
        if (parent != null) {
            files.syncDirectory(parent);
        }
    }

    static void sync(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some filesystems refuse fsync on a directory; there the rename or create is as durable as it gets.
            if (!String.valueOf(e.getMessage()).contains("Is a directory")) {
                throw e;
            }
        }
    }
}
