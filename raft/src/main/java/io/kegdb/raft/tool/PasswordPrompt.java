package io.kegdb.raft.tool;

import java.io.Console;

/**
 * Asks for a user's password on the terminal, without echo, when a command names a user but no password file
 * ({@code kegdb sql ... --user NAME}, {@code kegdb cluster ... --user NAME}). Without a terminal (a script, a
 * pipe, a service) it fails at once with what to give instead, never waiting for input that cannot come.
 */
public final class PasswordPrompt {

    private PasswordPrompt() {
    }

    /**
     * The password of {@code user}, read from {@code console} ({@link System#console()}: null when standard
     * input or output is not a terminal).
     *
     * @throws IllegalArgumentException when there is no console, or its input ended before a password
     */
    public static String ask(String user, Console console) {
        if (console == null) {
            throw new IllegalArgumentException("no password for user " + user + ": give --password-file FILE (the"
                    + " password, less a trailing newline), or run on a terminal to be asked for it");
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        if (typed == null) {
            throw new IllegalArgumentException("no password for user " + user + ": the terminal's input ended");
        }
        return new String(typed);
    }
}
