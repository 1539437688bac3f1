package io.kegdb.bench.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Cold start: {@link ColdStartProbe} in a fresh JVM (the same java, classpath and JVM options as this one) on a
 * loaded, closed database, a few times; the median of each phase. The whole process (JVM start to exit) is
 * timed from here, so what the JVM itself costs is the process time less the phases.
 */
public final class ColdStart {

    /** Milliseconds of each phase, medians over the runs. */
    public record Phases(double connectMs, double pointMs, double plannedMs, double closeMs, double processMs) {
        @Override
        public String toString() {
            return String.format("connect %.0f ms, first point query %.0f ms, first planned query %.0f ms,"
                    + " close %.0f ms, whole process %.0f ms", connectMs, pointMs, plannedMs, closeMs, processMs);
        }
    }

    private ColdStart() {
    }

    static Phases measure(String url, int runs, int rows) throws IOException, InterruptedException {
        double[][] samples = new double[5][runs];
        for (int run = 0; run < runs; run++) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                // A debugger or a test runner's agent would slow the child; it is not part of a cold start.
                if (!option.startsWith("-agentlib") && !option.startsWith("-javaagent") && !option.startsWith("-Xrunjdwp")) {
                    command.add(option);
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ColdStartProbe.class.getName(),
                    url, Integer.toString(rows)));
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String line;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                line = out.readLine();
                while (out.readLine() != null) {
                    // drain
                }
            }
            int exit = p.waitFor();
            double processMs = (System.nanoTime() - start) / 1e6;
            if (exit != 0 || line == null) {
                throw new IllegalStateException("cold-start probe on " + url + " failed (exit " + exit + ")");
            }
            String[] nanos = line.trim().split(" ");
            for (int i = 0; i < 4; i++) {
                samples[i][run] = Long.parseLong(nanos[i]) / 1e6;
            }
            samples[4][run] = processMs;
        }
        return new Phases(median(samples[0]), median(samples[1]), median(samples[2]), median(samples[3]),
                median(samples[4]));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static <T> String table(Map<T, Phases> byDatabase, Function<T, String> label) {
        if (byDatabase.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Cold start: a fresh JVM opens a connection, runs a first point query"
                + " and a first planned query (GROUP BY on the value), closes; ms, median of the runs.\n\n"
                + "| database | connect | first point query | first planned query | close | whole process |\n"
                + "|---|---:|---:|---:|---:|---:|\n");
        byDatabase.forEach((db, p) -> sb.append(String.format("| %s | %.0f | %.0f | %.0f | %.0f | %.0f |%n",
                label.apply(db), p.connectMs(), p.pointMs(), p.plannedMs(), p.closeMs(), p.processMs())));
        return sb.toString();
    }
}
