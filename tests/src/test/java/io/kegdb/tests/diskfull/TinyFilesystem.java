package io.kegdb.tests.diskfull;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted on a test directory, to run a store out of disk space for real. Needs root (or the
 * permission to mount); {@link #mount} skips the calling test with the reason when it cannot.
 */
final class TinyFilesystem implements AutoCloseable {

    private final Path dir;

    private TinyFilesystem(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code kib} KiB on {@code dir} (created), or aborts the test with the reason. */
    static TinyFilesystem mount(Path dir, int kib) throws Exception {
        Files.createDirectories(dir);
        String failure = run("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", dir.toString());
        Assumptions.assumeTrue(failure == null,
                () -> "skipped: cannot mount a tmpfs (needs root): " + failure);
        return new TinyFilesystem(dir);
    }

    Path dir() {
        return dir;
    }

    /** Changes the size of the mounted filesystem. */
    void resize(int kib) throws Exception {
        String failure = run("mount", "-o", "remount,size=" + kib + "k", dir.toString());
        if (failure != null) {
            throw new IOException("remount of " + dir + " failed: " + failure);
        }
    }

    /** Fills a file with {@code bytes} bytes, to be deleted later to give the space back. */
    Path ballast(String name, int bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, new byte[bytes]);
        return f;
    }

    /** Unmounts; lazily if mappings the garbage collector has not released yet keep it busy. */
    @Override
    public void close() throws IOException {
        try {
            if (run("umount", dir.toString()) != null) {
                String failure = run("umount", "-l", dir.toString());
                if (failure != null) {
                    throw new IOException("umount of " + dir + " failed: " + failure);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + dir, e);
        }
    }

    /** Runs a command; null on success, else its exit status and output. */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", cmd) + " did not finish in 30 s";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    }
}
