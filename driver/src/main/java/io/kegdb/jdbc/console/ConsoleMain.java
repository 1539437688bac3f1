package io.kegdb.jdbc.console;

import io.kegdb.raft.tool.PasswordPrompt;
import sqlline.ConsoleSqlLine;
import sqlline.SqlLine;

import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL console that {@code ./kegdb sql} starts: {@code ConsoleMain URL [--script FILE] [--continue-on-error]
 * [--user NAME [--password-file FILE]]} (a cluster with users: the password is the file's content less a
 * trailing newline; without the file, for a user named by {@code --user} or the URL's {@code user}, it is asked
 * for on the terminal without echo, and without a terminal the console fails at once saying so).
 * It opens the database first, so a store that cannot be opened (in use by another process, say) is one line
 * and exit status 1 instead of a stack trace and a prompt without a connection; then it runs sqlline on it,
 * interactively or on the script. Exit status: 0 ok, 1 a statement failed or the database could not be
 * opened, 2 a usage error.
 */
public final class ConsoleMain {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private ConsoleMain() {
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.err, System.console()));
    }

    /**
     * Runs the console and returns its exit status.
     *
     * @param console where to ask for the password of a user named without one (by {@code --user} or the
     *                URL's {@code user}) on a cluster, or null when there is no terminal
     */
    static int run(String[] args, PrintStream err, Console console) throws IOException {
        String url = null;
        Path script = null;
        boolean continueOnError = false;
        String user = "";
        String password = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--user", "--password-file" -> {
                    if (i + 1 >= args.length) {
                        err.println("kegdb sql: " + args[i] + " needs a value");
                        return USAGE;
                    }
                    if (args[i].equals("--user")) {
                        user = args[++i];
                    } else {
                        Path file = Path.of(args[++i]);
                        try {
                            password = Files.readString(file).replaceFirst("\r?\n$", "");
                        } catch (IOException e) {
                            err.println("kegdb sql: cannot read the password file " + file + ": " + e.getMessage());
                            return USAGE;
                        }
                    }
                }
                case "--script" -> {
                    if (i + 1 >= args.length) {
                        err.println("kegdb sql: --script needs a file");
                        return USAGE;
                    }
                    script = Path.of(args[++i]);
                }
                case "--continue-on-error" -> continueOnError = true;
                default -> {
                    if (url != null || args[i].startsWith("-")) {
                        err.println("kegdb sql: unexpected argument " + args[i]);
                        return USAGE;
                    }
                    url = args[i];
                }
            }
        }
        if (url == null) {
            err.println("kegdb sql: no database URL given");
            return USAGE;
        }
        if (password == null) {
            String named = user.isEmpty() ? urlOption(url, "user") : user;
            if (named != null && !named.isEmpty() && urlOption(url, "password") == null && isCluster(url)) {
                try {
                    password = PasswordPrompt.ask(named, console);
                    user = named;
                } catch (IllegalArgumentException e) {
                    err.println("kegdb sql: " + e.getMessage());
                    return USAGE;
                }
            } else {
                password = "";
            }
        }
        // Held open for the whole session: the console's own connection then shares the store it opened.
        Connection probe;
        try {
            java.util.Properties credentials = new java.util.Properties();
            if (!user.isEmpty()) {
                credentials.setProperty("user", user);
                credentials.setProperty("password", password);
            }
            probe = DriverManager.getConnection(url, credentials);
        } catch (SQLException e) {
            err.println("kegdb sql: cannot open " + url.replaceFirst("^jdbc:kegdb:", "") + ": " + Messages.firstLine(e.getMessage())
                    + (e.getSQLState() == null ? "" : " (" + e.getSQLState() + ")"));
            return FAILED;
        }
        try (probe) {
            String version = probe.getMetaData().getDatabaseProductVersion();
            ConsoleSqlLine sqlline = new ConsoleSqlLine(new ConsoleApplication(version), script != null, continueOnError);
            SqlLine.Status status;
            if (script != null && !Files.isReadable(script)) {
                err.println("kegdb sql: cannot read script " + script);
                return USAGE;
            }
            status = sqlline.begin(sqllineArgs(url, user, password, script, continueOnError), null, script == null);
            if (status == SqlLine.Status.ARGS) {
                return USAGE;
            }
            // interactively, a failed statement is reported and the session goes on; in a script it fails the run
            boolean failed = status != SqlLine.Status.OK || script != null && sqlline.failed();
            return failed ? FAILED : OK;
        } catch (SQLException e) {
            err.println("kegdb sql: " + Messages.firstLine(e.getMessage()));
            return FAILED;
        }
    }

    /** A cluster URL (thin client or member): only there do users log in. */
    private static boolean isCluster(String url) {
        return url.contains("raft://") || url.contains("raft.group=");
    }

    /** The value of option {@code name} in the URL's query ({@code ?a=b&name=value}), decoded; null if absent. */
    static String urlOption(String url, String name) {
        int q = url.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : url.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equalsIgnoreCase(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String[] sqllineArgs(String url, String user, String password, Path script,
                                        boolean continueOnError) {
        List<String> a = new ArrayList<>(List.of("-d", "io.kegdb.jdbc.KegDriver", "-u", url, "-n", user, "-p", password,
                "--isolation=TRANSACTION_READ_COMMITTED"));
        if (script != null) {
            a.addAll(List.of("--silent=true", "--showHeader=true", "--maxWidth=" + columns(), "--force=" + continueOnError,
                    "-f", script.toString()));
        }
        if (System.getenv("KEGDB_TRACE") != null) {
            a.add("--verbose=true"); // stack traces under errors, for bug reports
        }
        return a.toArray(String[]::new);
    }

    private static int columns() {
        try {
            return Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "160").trim());
        } catch (NumberFormatException e) {
            return 160;
        }
    }
}
