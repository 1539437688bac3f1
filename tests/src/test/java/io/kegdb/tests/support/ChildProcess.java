package io.kegdb.tests.support;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started from the test classpath running one main class, whose stdout lines the test reads as they
 * come. {@link #kill()} is a real SIGKILL ({@link ProcessHandle#destroyForcibly()} on Unix); what the child
 * printed before it stays readable.
 */
public final class ChildProcess implements AutoCloseable {

    private static final String EOF = "\u0000EOF";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private ChildProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            // Only newline-terminated lines count: a kill can cut the last one short, and a cut
            // "PUT key12" would read as a different, complete-looking "PUT key1".
            try (InputStreamReader r = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
                StringBuilder line = new StringBuilder();
                int c;
                while ((c = r.read()) >= 0) {
                    if (c == '\n') {
                        lines.add(line.toString());
                        line.setLength(0);
                    } else {
                        line.append((char) c);
                    }
                }
            } catch (IOException ignored) {
                // the process died: that is what these tests do to it
            } finally {
                lines.add(EOF);
            }
        }, "child-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    public static ChildProcess start(Class<?> main, Path log, String... args) throws IOException {
        return start(List.of(), System.getProperty("java.class.path"), main, log, args);
    }

    /**
     * {@link #start(Class, Path, String...)} with extra JVM options (e.g. {@code -verbose:class}) and a class
     * path of its own (e.g. the product's single jar beside the test classes).
     */
    public static ChildProcess start(List<String> jvmOptions, String classPath, Class<?> main, Path log,
                                     String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(log.toFile());
        return new ChildProcess(pb.start());
    }

    /** The next stdout line, or null at end of output or after the timeout. */
    public String nextLine(long timeoutMillis) throws InterruptedException {
        String line = lines.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        if (line == null || line.equals(EOF)) {
            if (line != null) {
                lines.add(EOF);
            }
            return null;
        }
        seen.add(line);
        return line;
    }

    /** Waits for a line equal to {@code expected}, failing after the timeout. */
    public void awaitLine(String expected, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            String line = nextLine(Math.max(1, deadline - System.currentTimeMillis()));
            if (line == null) {
                break;
            }
            if (line.equals(expected)) {
                return;
            }
        }
        throw new AssertionError("child did not print '" + expected + "' in " + timeoutMillis + " ms; saw " + seen);
    }

    /** Every line printed until the process ends (after a kill, what it managed to write before). */
    public List<String> drain(long timeoutMillis) throws InterruptedException {
        List<String> out = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String line;
        while ((line = nextLine(Math.max(1, deadline - System.currentTimeMillis()))) != null) {
            out.add(line);
        }
        return out;
    }

    public void kill() throws InterruptedException {
        // Through the handle: Process.destroyForcibly() also closes our end of the pipe at once, throwing
        // away whatever the child printed that was not read yet (acknowledgements a test must see).
        process.toHandle().destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("child did not die within 30 s of SIGKILL");
        }
    }

    public int waitFor(long timeoutMillis) throws InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not exit within " + timeoutMillis + " ms");
        }
        return process.exitValue();
    }

    /** Kills the child if it still runs; interrupted while waiting for it to die, leaves it dying. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // SIGKILL is sent; only the wait for the exit is cut short
            }
        }
    }
}
