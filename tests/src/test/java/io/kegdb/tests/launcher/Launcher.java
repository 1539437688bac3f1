package io.kegdb.tests.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a {@code kegdb} launcher script with bash, as a user would, and collects what it printed. */
final class Launcher {

    record Run(int exit, String out, String err) {
    }

    /** The repository's own launcher, on the jars this build made. */
    static final Path REPO_SCRIPT = Path.of(System.getProperty("user.dir")).resolve("..").normalize().resolve("kegdb");

    private Launcher() {
    }

    static Run kegdb(String... args) throws IOException, InterruptedException {
        return run(REPO_SCRIPT, Map.of("KEGDB_SKIP_BUILD", "1"), args);
    }

    static Run run(Path script, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Process p = start(script, env, args);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(script + " did not finish in 120 s");
        }
        return result(p);
    }

    static Process start(Path script, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.environment().put("COLUMNS", "120");
        Path out = Files.createTempFile("kegdb-out", ".txt");
        Path err = Files.createTempFile("kegdb-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        OUTPUTS.put(p, new Path[] {out, err});
        return p;
    }

    private static final Map<Process, Path[]> OUTPUTS = new java.util.concurrent.ConcurrentHashMap<>();

    static Run result(Process p) throws IOException {
        Path[] files = OUTPUTS.remove(p);
        return new Run(p.exitValue(), Files.readString(files[0], StandardCharsets.UTF_8),
                Files.readString(files[1], StandardCharsets.UTF_8));
    }
}
