package io.kegdb.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** fsync of a directory, so that file creations, renames and deletions in it survive a crash. */
final class Directories {

    private Directories() {
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
