package io.kegdb.bench;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The machine a run happened on, as one line for the report. */
final class MachineDescription {

    private MachineDescription() {
    }

    static String describe(Path dataDir) {
        Runtime rt = Runtime.getRuntime();
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
        String memKb = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        String mem = memKb == null ? "?" : String.format(Locale.ROOT, "%.1f GiB",
                Long.parseLong(memKb.replaceAll("[^0-9]", "")) / (1024.0 * 1024.0));
        String fs;
        try {
            FileStore store = Files.getFileStore(dataDir);
            fs = store.type() + " (" + store.name() + ")";
        } catch (IOException e) {
            fs = "?";
        }
        return String.format(Locale.ROOT,
                "%d CPUs (%s), %s RAM, %s %s; data in %s on %s; %s %s, max heap %.1f GiB",
                rt.availableProcessors(), cpu == null ? "?" : cpu, mem,
                System.getProperty("os.name"), System.getProperty("os.version"), dataDir.toAbsolutePath(), fs,
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                rt.maxMemory() / (1024.0 * 1024 * 1024));
    }

    private static String firstValue(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    return line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
