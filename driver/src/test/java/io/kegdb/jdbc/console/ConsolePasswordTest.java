package io.kegdb.jdbc.console;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kegdb sql} with a user and no password file: without a terminal (a script, a pipe, a service) it
 * fails at once saying what to give, before it connects anywhere; it never waits for input.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsolePasswordTest {

    /** A cluster address nothing listens on: a connection attempt would take the request timeout. */
    private static final String CLUSTER = "jdbc:kegdb:raft://127.0.0.1:1/g";

    private static String failure(String... args) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code = ConsoleMain.run(args, new PrintStream(err, true, StandardCharsets.UTF_8), null);
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(ConsoleMain.USAGE, code, text);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "failed at once: " + text);
        return text;
    }

    @Test
    void aUserOptionWithoutPasswordAndWithoutTerminalFailsAtOnce() throws Exception {
        String err = failure(CLUSTER, "--user", "bob");
        assertTrue(err.contains("no password for user bob") && err.contains("--password-file")
                && err.contains("terminal"), err);
    }

    @Test
    void aUserInTheUrlWithoutPasswordAndWithoutTerminalFailsAtOnce() throws Exception {
        String err = failure(CLUSTER + "?ssl=true&user=alice");
        assertTrue(err.contains("no password for user alice"), err);
    }

    @Test
    void urlOptionsAreReadByName() {
        assertEquals("a b", ConsoleMain.urlOption("jdbc:kegdb:raft://h:1/g?ssl=true&USER=a%20b", "user"));
        assertEquals("", ConsoleMain.urlOption("jdbc:kegdb:raft://h:1/g?password=", "password"));
        assertNull(ConsoleMain.urlOption("jdbc:kegdb:raft://h:1/g?ssl=true", "password"));
        assertNull(ConsoleMain.urlOption("jdbc:kegdb:/tmp/x", "user"));
    }
}
