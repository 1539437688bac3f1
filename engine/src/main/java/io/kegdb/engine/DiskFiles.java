package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** {@link FileLayer#DISK}: the file system, through the JDK. */
final class DiskFiles implements FileLayer {

    @Override
    public FileChannel open(Path file, OpenOption... options) throws IOException {
        return FileChannel.open(file, options);
    }

    @Override
    public void stored(FileChannel channel, ByteBuffer mapping, int offset, int length) {
        // The mapping is the file's page cache: the bytes are already where a write would put them.
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public boolean deleteIfExists(Path file) throws IOException {
        return Files.deleteIfExists(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        Directories.sync(dir);
    }
}
