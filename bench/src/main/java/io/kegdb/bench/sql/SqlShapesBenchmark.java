package io.kegdb.bench.sql;

import io.kegdb.bench.ScratchDirectory;
import io.kegdb.bench.jdbc.JdbcTarget;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * SQL shapes beyond the single key ({@link SqlShapes}) on KegDB, SQLite and H2 with the same data
 * ({@link ShapeData}) in one run: statements per second for each shape, ad hoc (a new literal in the text every
 * time) and prepared (one text with {@code ?}), each cell time-boxed; then the cold start of a fresh JVM on each
 * database ({@link ColdStart}). Before a database is timed, each shape's answer to one fixed parameter set is
 * taken in both forms and compared across databases; a shape whose answers differ is flagged in the table.
 *
 * <pre>
 * ./kegdb bench sql [--rows N] [--seconds S] [--warmup S] [--cold-runs N] [--only kegdb,sqlite,h2]
 *                   [--shapes SUBSTRING,...] [--dir DIR]
 * </pre>
 */
public final class SqlShapesBenchmark {

    /** How a shape's statement is sent. */
    enum Form { AD_HOC, PREPARED }

    /** The run's settings; {@link #parse} reads them from the command line. */
    record Options(int rows, double seconds, double warmup, int coldRuns, List<JdbcTarget> targets, Path dir,
                   List<SqlShape> shapes) {
        static Options parse(String[] args) {
            int rows = 100_000;
            double seconds = 1;
            Double warmup = null;
            int coldRuns = 3;
            List<JdbcTarget> targets = List.of(JdbcTarget.values());
            Path dir = null;
            List<SqlShape> shapes = SqlShapes.ALL;
            for (int i = 0; i < args.length; i++) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String value = args[++i];
                switch (args[i - 1]) {
                    case "--rows" -> rows = Integer.parseInt(value);
                    case "--seconds" -> seconds = Double.parseDouble(value);
                    case "--warmup" -> warmup = Double.parseDouble(value);
                    case "--cold-runs" -> coldRuns = Integer.parseInt(value);
                    case "--dir" -> dir = Path.of(value);
                    case "--only" -> {
                        List<JdbcTarget> chosen = new ArrayList<>();
                        for (String name : value.split(",")) {
                            chosen.add(JdbcTarget.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                        }
                        targets = List.copyOf(chosen);
                    }
                    case "--shapes" -> shapes = SqlShapes.matching(value);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i - 1]
                            + " (known: --rows --seconds --warmup --cold-runs --only --shapes --dir)");
                }
            }
            // Untimed runs of the same shape before each cell: half the cell unless told (JIT, plan caches).
            return new Options(rows, seconds, warmup == null ? seconds / 2 : warmup, coldRuns, targets,
                    dir == null ? Path.of(System.getProperty("java.io.tmpdir")) : dir, shapes);
        }
    }

    /** Statements per second of one shape on one database, both forms. */
    record Rates(double adHoc, double prepared) {
    }

    /** Everything a run measured. */
    record Report(Options options, Map<JdbcTarget, Map<SqlShape, Rates>> rates, Map<SqlShape, String> mismatches,
                  Map<JdbcTarget, ColdStart.Phases> coldStarts) {
    }

    private SqlShapesBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Report report = run(Options.parse(args));
        System.out.print(table(report));
        System.out.println();
        System.out.print(ColdStart.table(report.coldStarts(), JdbcTarget::label));
    }

    static Report run(Options options) throws Exception {
        Map<JdbcTarget, Map<SqlShape, Rates>> rates = new EnumMap<>(JdbcTarget.class);
        Map<JdbcTarget, Map<SqlShape, List<String>>> answers = new EnumMap<>(JdbcTarget.class);
        Map<JdbcTarget, ColdStart.Phases> cold = new EnumMap<>(JdbcTarget.class);
        ShapeData data = new ShapeData(options.rows());
        try (ScratchDirectory scratch = ScratchDirectory.create(options.dir(), "kegdb-sql-bench")) {
            for (JdbcTarget target : options.targets()) {
                Path dir = Files.createDirectories(scratch.path().resolve(target.name().toLowerCase(Locale.ROOT)));
                String url = target.url(dir);
                System.err.printf("%s: %s%n", target.label(), url);
                Map<SqlShape, Rates> r = new LinkedHashMap<>();
                Map<SqlShape, List<String>> a = new LinkedHashMap<>();
                try (Connection c = DriverManager.getConnection(url)) {
                    long start = System.nanoTime();
                    data.load(c);
                    System.err.printf("  loaded %,d + %,d rows in %.1f s%n", data.rows(), data.otherRows(),
                            (System.nanoTime() - start) / 1e9);
                    for (SqlShape shape : options.shapes()) {
                        a.put(shape, answer(c, shape, data.rows()));
                        Rates cell = new Rates(cell(c, shape, Form.AD_HOC, options, data.rows()),
                                cell(c, shape, Form.PREPARED, options, data.rows()));
                        System.err.printf("  %-40s %12s / %12s statements/s%n", shape.label(), rate(cell.adHoc()),
                                rate(cell.prepared()));
                        r.put(shape, cell);
                    }
                }
                rates.put(target, r);
                answers.put(target, a);
                if (options.coldRuns() > 0) {
                    ColdStart.Phases phases = ColdStart.measure(url, options.coldRuns(), data.rows());
                    System.err.printf("  cold start: %s%n", phases);
                    cold.put(target, phases);
                }
                System.gc(); // what one database left behind is not collected while the next is timed
            }
        }
        return new Report(options, rates, mismatches(options.shapes(), answers), cold);
    }

    /**
     * The shape's answer to one fixed parameter set, the same in both forms (else the form is named): rows as
     * {@code a|b|c} strings, sorted unless the statement orders them.
     */
    static List<String> answer(Connection c, SqlShape shape, int rows) throws SQLException {
        Object[] params = shape.parameters().apply(new Random(42), rows);
        List<String> prepared;
        try (PreparedStatement ps = c.prepareStatement(shape.sql())) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                prepared = rowsOf(rs, shape.ordered());
            }
        }
        List<String> adHoc;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(shape.adHoc(params))) {
            adHoc = rowsOf(rs, shape.ordered());
        }
        if (!adHoc.equals(prepared)) {
            List<String> both = new ArrayList<>();
            both.add("ad hoc " + adHoc + " but prepared " + prepared);
            return both;
        }
        return prepared;
    }

    private static List<String> rowsOf(ResultSet rs, boolean ordered) throws SQLException {
        List<String> out = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns; i++) {
                row.append(i > 1 ? "|" : "").append(rs.getString(i));
            }
            out.add(row.toString());
        }
        if (!ordered) {
            out.sort(null);
        }
        return out;
    }

    /** For each shape whose answers differ between databases, what each database answered. */
    private static Map<SqlShape, String> mismatches(List<SqlShape> shapes,
                                                    Map<JdbcTarget, Map<SqlShape, List<String>>> answers) {
        Map<SqlShape, String> out = new LinkedHashMap<>();
        for (SqlShape shape : shapes) {
            List<String> first = null;
            boolean differ = false;
            StringBuilder what = new StringBuilder();
            for (Map.Entry<JdbcTarget, Map<SqlShape, List<String>>> e : answers.entrySet()) {
                List<String> rows = e.getValue().get(shape);
                differ |= first != null && !first.equals(rows);
                first = first == null ? rows : first;
                what.append(e.getKey().label()).append(": ").append(rows).append("; ");
            }
            if (differ) {
                out.put(shape, what.toString());
                System.err.println("answers differ for " + shape.sql() + ": " + what);
            }
        }
        return out;
    }

    /** Untimed warm-up, then statements until the cell's time is up; statements per second. */
    private static double cell(Connection c, SqlShape shape, Form form, Options options, int rows) throws SQLException {
        // Different seeds: the timed ad hoc texts are not the ones the warm-up already sent.
        loop(c, shape, form, options.warmup(), new Random(1), rows);
        return loop(c, shape, form, options.seconds(), new Random(2), rows);
    }

    private static double loop(Connection c, SqlShape shape, Form form, double seconds, Random random, int rows)
            throws SQLException {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long statements = 0;
        long cells = 0;
        try (PreparedStatement ps = form == Form.PREPARED ? c.prepareStatement(shape.sql()) : null;
             Statement s = c.createStatement()) {
            long now;
            do {
                Object[] params = shape.parameters().apply(random, rows);
                ResultSet rs;
                if (ps != null) {
                    bind(ps, params);
                    rs = ps.executeQuery();
                } else {
                    rs = s.executeQuery(shape.adHoc(params));
                }
                try (rs) {
                    cells += consume(rs);
                }
                statements++;
                now = System.nanoTime();
            } while (now < end);
            if (cells < 0) {
                throw new AssertionError(); // keeps the reads from being optimized away
            }
            return statements / ((now - start) / 1e9);
        }
    }

    /** Reads every column of every row as a string, as an application would; the number of values read. */
    private static long consume(ResultSet rs) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        long values = 0;
        while (rs.next()) {
            for (int i = 1; i <= columns; i++) {
                if (rs.getString(i) != null) {
                    values++;
                }
            }
        }
        return values;
    }

    private static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }

    static String table(Report report) {
        Options o = report.options();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%,d rows in kv, %,d in other; statements/s, ad hoc (a new literal in the text each"
                        + " time) / prepared (one text with ?); %.1f s per cell after %.1f s of warm-up; one connection.%n%n",
                o.rows(), o.rows() / 10, o.seconds(), o.warmup()));
        sb.append("| shape |");
        report.rates().keySet().forEach(t -> sb.append(' ').append(t.label()).append(" ad hoc / prepared |"));
        boolean ratio = report.rates().containsKey(JdbcTarget.KEGDB) && report.rates().containsKey(JdbcTarget.SQLITE);
        if (ratio) {
            sb.append(" KegDB / SQLite |");
        }
        sb.append("\n|---|");
        report.rates().keySet().forEach(t -> sb.append("---:|"));
        sb.append(ratio ? "---:|\n" : "\n");
        for (SqlShape shape : o.shapes()) {
            sb.append("| `").append(shape.sql()).append("`").append(report.mismatches().containsKey(shape)
                    ? " (answers differ!)" : "").append(" |");
            for (Map<SqlShape, Rates> r : report.rates().values()) {
                Rates cell = r.get(shape);
                sb.append(' ').append(rate(cell.adHoc())).append(" / ").append(rate(cell.prepared())).append(" |");
            }
            if (ratio) {
                Rates k = report.rates().get(JdbcTarget.KEGDB).get(shape);
                Rates s = report.rates().get(JdbcTarget.SQLITE).get(shape);
                sb.append(String.format(" %s× / %s× |", ratio(k.adHoc() / s.adHoc()), ratio(k.prepared() / s.prepared())));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String rate(double perSecond) {
        return perSecond < 100 ? String.format("%.1f", perSecond) : String.format("%,.0f", perSecond);
    }

    private static String ratio(double r) {
        return r < 0.1 ? String.format("%.4f", r) : String.format("%.2f", r);
    }
}
