package io.kegdb.jdbc.differential;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The rounds and cases a differential run generated, written to a file ({@code -Dkegdb.differential.script=FILE})
 * so that the benchmark of statements seen once ({@code io.kegdb.bench.sql.SeenOnceBench}, which reads this
 * format) replays them on KegDB and H2. One line per item, fields separated by tabs (a tab, line break or
 * backslash inside a field escaped as {@code \t}, {@code \n}, {@code \\}):
 *
 * <pre>
 * round  MEMORY|FILE                  a fresh database of each kind, KegDB's store as given
 * table  CREATE TABLE ...  INSERT ...  a table of the round and its rows (the INSERT empty for no rows)
 * case   AUTOCOMMIT|COMMIT|ROLLBACK   a case: its statements follow, in a transaction unless AUTOCOMMIT
 * query  KegDB's SQL  H2's SQL         a statement whose rows are read
 * write  KegDB's SQL  H2's SQL         a statement that writes
 * </pre>
 */
final class StatementScript implements AutoCloseable {

    private final BufferedWriter out;

    private StatementScript(BufferedWriter out) {
        this.out = out;
    }

    /** The script the system property names, or null when it names none. */
    static StatementScript fromProperty() {
        String path = System.getProperty("kegdb.differential.script");
        if (path == null || path.isBlank()) {
            return null;
        }
        try {
            return new StatementScript(Files.newBufferedWriter(Path.of(path), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void round(DatabaseSet.Store store, List<RandomTable> tables) {
        line("round", store.name());
        for (RandomTable t : tables) {
            String insert = t.insertSql();
            line("table", t.ddl(Dialect.KEGDB), insert == null ? "" : insert);
        }
    }

    void add(Case c) {
        line("case", c.end().name());
        for (Case.Step s : c.steps()) {
            line(s.query() ? "query" : "write", s.kegdb(), s.h2());
        }
    }

    private void line(String... fields) {
        try {
            for (int i = 0; i < fields.length; i++) {
                if (i > 0) {
                    out.write('\t');
                }
                out.write(fields[i].replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"));
            }
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
