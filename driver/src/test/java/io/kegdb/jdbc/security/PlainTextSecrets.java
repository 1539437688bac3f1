package io.kegdb.jdbc.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The check that passwords never reach a node's disk in plain text: no byte sequence of any secret in any file
 * under the given roots (a node's log, meta, snapshots and data, its log file). Shared by the users suites in
 * this module and, through its test jar, the multi-process ones.
 */
public final class PlainTextSecrets {

    private PlainTextSecrets() {
    }

    /**
     * Fails naming the file and secret if any regular file under {@code roots} (directories walked, files
     * read) holds one of {@code secrets} in UTF-8.
     *
     * @return the number of files looked at, so a caller can check the scan saw something
     */
    public static int assertAbsent(List<String> secrets, Path... roots) throws IOException {
        int files = 0;
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                    byte[] content = Files.readAllBytes(f);
                    for (String secret : secrets) {
                        assertFalse(contains(content, secret.getBytes(StandardCharsets.UTF_8)),
                                f + " holds a password in plain text");
                    }
                    files++;
                }
            }
        }
        return files;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
