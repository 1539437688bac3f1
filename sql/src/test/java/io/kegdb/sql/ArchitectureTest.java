package io.kegdb.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module's boundaries, read from the source trees (paths relative to this module's directory, where the
 * build runs tests): other modules use only the API package {@code io.kegdb.sql}, never its internal
 * sub-packages; and SQL knows nothing of Raft (the driver adds Raft through {@link SystemTableSource}).
 */
class ArchitectureTest {

    /** A name in an internal package: {@code io.kegdb.sql.} followed by a lower-case package segment. */
    private static final Pattern INTERNAL = Pattern.compile("\\bio\\.kegdb\\.sql\\.[a-z]\\w*\\.");
    private static final Pattern RAFT = Pattern.compile("\\bio\\.kegdb\\.raft\\b");
    private static final Pattern API_IMPORT = Pattern.compile("(?m)^import io\\.kegdb\\.sql\\.[A-Z]\\w*;");

    private static final List<Path> OTHER_MODULES = Stream.of("driver", "bench", "examples", "tests")
            .flatMap(m -> Stream.of("main", "test").map(s -> Path.of("..", m, "src", s, "java")))
            .toList();

    @Test
    void otherModulesUseOnlyTheApiPackage() {
        Path driverMain = Path.of("../driver/src/main/java");
        assertTrue(Files.isDirectory(driverMain), "run from the sql module directory: " + driverMain.toAbsolutePath());
        // The scan must see the driver's API imports, or it would pass by reading nothing.
        assertTrue(!matches(driverMain, API_IMPORT).isEmpty(), "the driver's imports of io.kegdb.sql were not found");
        List<String> violations = new ArrayList<>();
        for (Path root : OTHER_MODULES) {
            violations.addAll(matches(root, INTERNAL));
        }
        assertEquals(List.of(), violations, "internal packages of io.kegdb.sql used outside the sql module");
    }

    @Test
    void sqlDoesNotDependOnRaft() {
        List<String> violations = new ArrayList<>(matches(Path.of("src/main/java"), RAFT));
        violations.addAll(matches(Path.of("src/test/java"), RAFT).stream()
                .filter(v -> !v.contains("ArchitectureTest.java")).toList());
        assertEquals(List.of(), violations, "io.kegdb.raft used by the sql module");
    }

    @Test
    void theChecksCatchABadImport(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("io/example/App.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "package io.example;\n\nimport io.kegdb.sql.SqlDatabase;\n"
                + "import io.kegdb.sql.catalog.Catalog;\nimport io.kegdb.raft.RaftNode;\n\nclass App {\n}\n");
        assertEquals(List.of(file + ":4: import io.kegdb.sql.catalog.Catalog;"), matches(dir, INTERNAL));
        assertEquals(List.of(file + ":5: import io.kegdb.raft.RaftNode;"), matches(dir, RAFT));
        assertEquals(1, matches(dir, API_IMPORT).size());
    }

    /** Each line of a .java file under {@code root} where {@code pattern} occurs, as "path:line: text". */
    private static List<String> matches(Path root, Pattern pattern) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String text = Files.readString(file);
                Matcher m = pattern.matcher(text);
                while (m.find()) {
                    int start = text.lastIndexOf('\n', m.start()) + 1;
                    int end = text.indexOf('\n', m.start());
                    int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                    out.add(file + ":" + line + ": " + text.substring(start, end < 0 ? text.length() : end));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
