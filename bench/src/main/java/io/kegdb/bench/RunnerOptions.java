package io.kegdb.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Command-line options of {@link SeedWorkloads}. */
record RunnerOptions(List<Workload> workloads, List<Engine> engines, Set<Part> parts, Path dir, long seed,
                     long warmupKeys, double phaseSeconds, long mergeKeys, boolean progress) {

    /** Groups of measurements that can be chosen with {@code --parts}. */
    enum Part {
        /** The go-bitcask table on every engine. */
        SEED,
        /** fsync floor, KegDB SYNC put latency and SYNC throughput with 1, 8 and 64 writers. */
        SYNC,
        /** KegDB put latency while a merge runs. */
        MERGE
    }

    static final String USAGE = String.join("\n",
            "usage: SeedWorkloads [options]",
            "  --workloads LIST   COUNT:KEYBYTES:VALUEBYTES,... (default 1M:8:128,1M:16:512,10M:8:128)",
            "  --engines LIST     kegdb,rocksdb,lmdb (default all three)",
            "  --parts LIST       seed,sync,merge (default all; sync and merge run on KegDB only)",
            "  --dir PATH         parent of the scratch store directories (default java.io.tmpdir)",
            "  --seed N           seed of keys, values and read order (default 1)",
            "  --warmup-keys N    keys of the untimed warm-up run per engine, 0 for none (default 200k)",
            "  --phase-seconds S  length of each SYNC measurement and of the pre-merge baseline (default 5)",
            "  --merge-keys N     keys loaded (then overwritten) for the merge measurement (default 1M)",
            "  --quiet            no progress lines on stderr",
            "  --help");

    static RunnerOptions defaults() {
        return new RunnerOptions(
                List.of(Workload.parse("1M:8:128"), Workload.parse("1M:16:512"), Workload.parse("10M:8:128")),
                List.of(Engine.values()), EnumSet.allOf(Part.class),
                Path.of(System.getProperty("java.io.tmpdir")), 1, 200_000, 5, 1_000_000, true);
    }

    /** Parses arguments; throws {@link IllegalArgumentException} naming the bad one. */
    static RunnerOptions parse(String... args) {
        RunnerOptions o = defaults();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (name.equals("--quiet")) {
                o = o.with(o.workloads, o.engines, o.parts, o.dir, o.seed, o.warmupKeys, o.phaseSeconds,
                        o.mergeKeys, false);
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                value = args[++i];
            }
            o = o.set(name, value);
        }
        if (o.engines.isEmpty()) {
            throw new IllegalArgumentException("--engines names no engine");
        }
        return o;
    }

    private RunnerOptions set(String name, String value) {
        switch (name) {
            case "--workloads" -> {
                List<Workload> list = new ArrayList<>();
                for (String w : value.split(",")) {
                    list.add(Workload.parse(w));
                }
                return with(List.copyOf(list), engines, parts, dir, seed, warmupKeys, phaseSeconds, mergeKeys, progress);
            }
            case "--engines" -> {
                List<Engine> list = new ArrayList<>();
                for (String e : value.split(",")) {
                    Engine engine = Engine.parse(e);
                    if (!list.contains(engine)) {
                        list.add(engine);
                    }
                }
                return with(workloads, List.copyOf(list), parts, dir, seed, warmupKeys, phaseSeconds, mergeKeys, progress);
            }
            case "--parts" -> {
                Set<Part> set = EnumSet.noneOf(Part.class);
                for (String p : value.split(",")) {
                    try {
                        set.add(Part.valueOf(p.trim().toUpperCase(Locale.ROOT)));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("unknown part '" + p + "'; expected seed, sync or merge", e);
                    }
                }
                return with(workloads, engines, set, dir, seed, warmupKeys, phaseSeconds, mergeKeys, progress);
            }
            case "--dir" -> {
                return with(workloads, engines, parts, Path.of(value), seed, warmupKeys, phaseSeconds, mergeKeys, progress);
            }
            case "--seed" -> {
                return with(workloads, engines, parts, dir, parseLong(name, value), warmupKeys, phaseSeconds,
                        mergeKeys, progress);
            }
            case "--warmup-keys" -> {
                long n = Workload.parseCount(value);
                if (n < 0) {
                    throw new IllegalArgumentException("--warmup-keys " + value + " is negative");
                }
                return with(workloads, engines, parts, dir, seed, n, phaseSeconds, mergeKeys, progress);
            }
            case "--phase-seconds" -> {
                double s;
                try {
                    s = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--phase-seconds " + value + " is not a number", e);
                }
                if (!(s > 0 && s <= 600)) {
                    throw new IllegalArgumentException("--phase-seconds " + value + " outside (0, 600]");
                }
                return with(workloads, engines, parts, dir, seed, warmupKeys, s, mergeKeys, progress);
            }
            case "--merge-keys" -> {
                long n = Workload.parseCount(value);
                if (n < 1) {
                    throw new IllegalArgumentException("--merge-keys " + value + " is below 1");
                }
                return with(workloads, engines, parts, dir, seed, warmupKeys, phaseSeconds, n, progress);
            }
            default -> throw new IllegalArgumentException("unknown option " + name);
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " " + value + " is not an integer", e);
        }
    }

    private RunnerOptions with(List<Workload> w, List<Engine> e, Set<Part> p, Path d, long s, long warm,
                               double secs, long merge, boolean prog) {
        return new RunnerOptions(w, e, p, d, s, warm, secs, merge, prog);
    }

    long phaseNanos() {
        return (long) (phaseSeconds * 1e9);
    }
}
