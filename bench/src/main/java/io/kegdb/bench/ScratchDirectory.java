package io.kegdb.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/** A fresh directory for one store, deleted with everything in it on close. */
public final class ScratchDirectory implements AutoCloseable {

    private final Path path;

    private ScratchDirectory(Path path) {
        this.path = path;
    }

    public static ScratchDirectory create(Path parent, String prefix) throws IOException {
        Files.createDirectories(parent);
        return new ScratchDirectory(Files.createTempDirectory(parent, prefix));
    }

    public Path path() {
        return path;
    }

    /** Sum of the sizes of the regular files under the directory. */
    long sizeBytes() throws IOException {
        try (Stream<Path> files = Files.walk(path)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // a file removed while walking (e.g. by a merge) no longer takes space
                }
            }).sum();
        }
    }

    @Override
    public void close() throws IOException {
        deleteTree(path);
    }

    /**
     * Deletes {@code root} and everything under it; nothing if it does not exist. Files are deleted before the
     * directories holding them, so a failure leaves a tree that a second call can finish.
     */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file); // a merge may remove a segment meanwhile
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
