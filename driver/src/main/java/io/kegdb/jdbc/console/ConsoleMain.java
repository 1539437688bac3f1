package io.kegdb.jdbc.console;

import sqlline.ConsoleSqlLine;
import sqlline.SqlLine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL console that {@code ./kegdb sql} starts: {@code ConsoleMain URL [--script FILE] [--continue-on-error]
 * [--user NAME --password-file FILE]} (a cluster with users: the password is the file's content less a
 * trailing newline).
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
        System.exit(run(args, System.err));
    }

    static int run(String[] args, PrintStream err) throws IOException {
        String url = null;
        Path script = null;
        boolean continueOnError = false;
        String user = "";
        String password = "";
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
