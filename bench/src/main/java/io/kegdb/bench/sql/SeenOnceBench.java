package io.kegdb.bench.sql;

import io.kegdb.bench.ScratchDirectory;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Statements seen once: the rounds and cases of a differential run (random tables of a few dozen rows; joins,
 * sub-queries, aggregates, set operations, DML and transactions, each text new), replayed on KegDB and on H2 in
 * turns, case by case, and timed; KegDB's planning time is taken apart by phase from its meters
 * ({@code kegdb.sql.planning.seconds}, read through the store's JMX MBean before each round's database closes).
 * Each round has fresh databases of its own, so every KegDB plan cache starts empty.
 *
 * <p>The script is written by the differential test of the driver
 * ({@code mvn -pl driver -am test -Dtest=DifferentialTest -Dkegdb.differential.script=FILE}; its seed and case count
 * as always). Its format, one line per item, fields separated by tabs ({@code \t}, {@code \n} and {@code \\}
 * escaped inside a field):
 *
 * <pre>
 * round  MEMORY|FILE                  fresh databases; KegDB in memory or in a directory
 * table  CREATE TABLE ...  INSERT ...  a table of the round and its rows, the same SQL on both (INSERT empty: no rows)
 * case   AUTOCOMMIT|COMMIT|ROLLBACK   a case; its statements follow, in one transaction unless AUTOCOMMIT
 * query  KegDB's SQL  H2's SQL         a statement whose rows are read to the end
 * write  KegDB's SQL  H2's SQL         a statement that writes
 * </pre>
 *
 * <pre>
 * java -cp ... io.kegdb.bench.sql.SeenOnceBench --script FILE [--skip-rounds N] [--dir DIR]
 * </pre>
 *
 * The first rounds ({@code --skip-rounds}, default 2) are run but not counted: they pay the JVM's class loading
 * and first compilations, which a long-running application pays once.
 */
public final class SeenOnceBench {

    private static final int QUERY_TIMEOUT_SECONDS = 20;
    private static final List<String> PHASES = List.of("parse", "validate", "planner", "sql-to-rel",
            "join-conditions", "kv-rules", "rewrites", "trim", "volcano", "calcs", "generate", "compile", "explain",
            "other");

    /** One round of the script: its store kind, tables and cases. */
    record Round(String store, List<String[]> tables, List<ScriptCase> cases) {
    }

    /** A case: how it ends and its statements, each {kind, KegDB's SQL, H2's SQL}. */
    record ScriptCase(String end, List<String[]> steps) {
    }

    /** What one database spent on the counted rounds. */
    static final class Totals {
        long nanos;
        int statements;
        int errors;
    }

    /** A run's figures: both databases' totals, and KegDB's planning by phase. */
    record Report(int rounds, int counted, int cases, Totals kegdb, Totals h2, Map<String, Double> phaseSeconds,
                  double plannings, double reuses) {
    }

    private SeenOnceBench() {
    }

    public static void main(String[] args) throws Exception {
        Path script = null;
        int skip = 2;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--script" -> script = Path.of(args[i + 1]);
                case "--skip-rounds" -> skip = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --script --skip-rounds --dir)");
            }
        }
        if (script == null || args.length % 2 != 0) {
            throw new IllegalArgumentException("usage: SeenOnceBench --script FILE [--skip-rounds N] [--dir DIR]");
        }
        System.out.print(table(run(read(script), skip, dir)));
    }

    /** Reads a script (format in the class comment). */
    static List<Round> read(Path script) throws IOException {
        List<Round> rounds = new ArrayList<>();
        Round round = null;
        ScriptCase current = null;
        int n = 0;
        for (String line : Files.readAllLines(script, StandardCharsets.UTF_8)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            for (int i = 0; i < f.length; i++) {
                f[i] = unescape(f[i]);
            }
            switch (f[0]) {
                case "round" -> {
                    round = new Round(f[1], new ArrayList<>(), new ArrayList<>());
                    rounds.add(round);
                    current = null;
                }
                case "table" -> require(round, n).tables().add(new String[] {f[1], f[2]});
                case "case" -> {
                    current = new ScriptCase(f[1], new ArrayList<>());
                    require(round, n).cases().add(current);
                }
                case "query", "write" -> require(current, n).steps().add(new String[] {f[0], f[1], f[2]});
                default -> throw new IOException(script + ":" + n + ": unknown item " + f[0]);
            }
        }
        return rounds;
    }

    private static <T> T require(T context, int line) throws IOException {
        if (context == null) {
            throw new IOException("line " + line + ": outside a round or case");
        }
        return context;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                b.append(e == 't' ? '\t' : e == 'n' ? '\n' : e);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static Report run(List<Round> rounds, int skip, Path dir) throws Exception {
        Totals kegdb = new Totals();
        Totals h2 = new Totals();
        Map<String, Double> phases = new LinkedHashMap<>();
        PHASES.forEach(p -> phases.put(p, 0.0));
        double[] plannings = {0, 0};
        int cases = 0;
        try (ScratchDirectory scratch = ScratchDirectory.create(dir, "kegdb-seen-once")) {
            for (int r = 0; r < rounds.size(); r++) {
                Round round = rounds.get(r);
                boolean counted = r >= skip;
                String name = "seenonce" + ProcessHandle.current().pid() + "_" + r;
                String kegdbUrl = round.store().equals("FILE")
                        ? "jdbc:kegdb:" + scratch.path().resolve(name) + "?durability=nosync"
                        : "jdbc:kegdb:mem:" + name;
                try (Connection k = DriverManager.getConnection(kegdbUrl);
                     Connection h = DriverManager.getConnection("jdbc:h2:mem:" + name)) {
                    for (String[] table : round.tables()) {
                        load(k, table);
                        load(h, table);
                    }
                    for (ScriptCase c : round.cases()) {
                        runCase(k, 1, c, counted ? kegdb : new Totals());
                        runCase(h, 2, c, counted ? h2 : new Totals());
                        cases += counted ? 1 : 0;
                    }
                    if (counted) {
                        Map<String, Double> meters = planningMeters(name);
                        PHASES.forEach(p -> phases.merge(p, meters.getOrDefault("phase=" + p, 0.0), Double::sum));
                        plannings[0] += meters.getOrDefault("plannings", 0.0);
                        plannings[1] += meters.getOrDefault("reuses", 0.0);
                    }
                }
            }
        }
        return new Report(rounds.size(), Math.max(0, rounds.size() - skip), cases, kegdb, h2, phases, plannings[0],
                plannings[1]);
    }

    private static void load(Connection c, String[] table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(table[0]);
            if (!table[1].isEmpty()) {
                s.executeUpdate(table[1]);
            }
        }
    }

    /** Runs one case on one database ({@code column} 1 KegDB's SQL, 2 H2's), adding its time to {@code totals}. */
    private static void runCase(Connection c, int column, ScriptCase k, Totals totals) throws SQLException {
        boolean transaction = !k.end().equals("AUTOCOMMIT");
        long start = System.nanoTime();
        try {
            if (transaction) {
                c.setAutoCommit(false);
            }
            for (String[] step : k.steps()) {
                totals.statements++;
                try (Statement s = c.createStatement()) {
                    s.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                    if (step[0].equals("query")) {
                        try (ResultSet rs = s.executeQuery(step[column])) {
                            int columns = rs.getMetaData().getColumnCount();
                            while (rs.next()) {
                                for (int i = 1; i <= columns; i++) {
                                    rs.getObject(i);
                                }
                            }
                        }
                    } else {
                        s.executeUpdate(step[column]);
                    }
                }
            }
            if (transaction) {
                if (k.end().equals("COMMIT")) {
                    c.commit();
                } else {
                    c.rollback();
                }
            }
        } catch (SQLException e) {
            // The differential run judges answers; here an error is a statement like any other, counted.
            totals.errors++;
            if (transaction) {
                c.rollback();
            }
        } finally {
            if (transaction) {
                c.setAutoCommit(true);
            }
            totals.nanos += System.nanoTime() - start;
        }
    }

    /** KegDB's planning meters of the store named {@code name}, read from its MBean: by phase, and the counts. */
    private static Map<String, Double> planningMeters(String name) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Double> out = new LinkedHashMap<>();
        for (ObjectName bean : server.queryNames(new ObjectName("io.kegdb:type=Store,*"), null)) {
            if (!bean.getKeyProperty("name").contains(name)) {
                continue;
            }
            for (String p : PHASES) {
                out.put("phase=" + p, ((Number) server.getAttribute(bean, "sql.planning.seconds[phase=" + p + "]"))
                        .doubleValue());
            }
            out.put("plannings", ((Number) server.getAttribute(bean, "sql.plannings")).doubleValue());
            out.put("reuses", ((Number) server.getAttribute(bean, "sql.compiled.code.reuses")).doubleValue());
        }
        return out;
    }

    static String table(Report r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "statements seen once: %d rounds (%d counted), %d cases, %d statements%n",
                r.rounds(), r.counted(), r.cases(), r.kegdb().statements));
        b.append(String.format(Locale.ROOT, "%-10s %10s %14s %8s%n", "", "seconds", "ms/statement", "errors"));
        for (Map.Entry<String, Totals> e : Map.of("KegDB", r.kegdb(), "H2", r.h2()).entrySet().stream()
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())).toList()) {
            Totals t = e.getValue();
            b.append(String.format(Locale.ROOT, "%-10s %10.2f %14.3f %8d%n", e.getKey(), t.nanos / 1e9,
                    t.statements == 0 ? 0 : t.nanos / 1e6 / t.statements, t.errors));
        }
        b.append(String.format(Locale.ROOT, "KegDB / H2: %.1fx%n%n", r.h2().nanos == 0 ? 0
                : (double) r.kegdb().nanos / r.h2().nanos));
        b.append(String.format(Locale.ROOT, "KegDB's Calcite plannings: %.0f (compiled code reused by %.0f)%n",
                r.plannings(), r.reuses()));
        b.append(String.format(Locale.ROOT, "%-16s %10s %8s %14s%n", "phase", "seconds", "share", "ms/planning"));
        double planning = r.phaseSeconds().values().stream().mapToDouble(Double::doubleValue).sum();
        double total = r.kegdb().nanos / 1e9;
        for (Map.Entry<String, Double> e : r.phaseSeconds().entrySet()) {
            b.append(row(e.getKey(), e.getValue(), total, r.plannings()));
        }
        b.append(row("planning", planning, total, r.plannings()));
        b.append(row("rest", total - planning, total, r.plannings()));
        return b.toString();
    }

    private static String row(String label, double seconds, double total, double plannings) {
        return String.format(Locale.ROOT, "%-16s %10.3f %7.1f%% %14.3f%n", label, seconds,
                total == 0 ? 0 : 100 * seconds / total, plannings == 0 ? 0 : 1000 * seconds / plannings);
    }
}
