package io.kegdb.jdbc.console;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What users of psql, sqlite3 and mysql type out of habit, as the sqlline command that does it:
 * {@code exit} and {@code quit}, {@code SHOW TABLES}, {@code DESCRIBE t} (or {@code DESC t}).
 */
public final class ConsoleShortcuts {

    private static final Pattern DESCRIBE = Pattern.compile("(?is)DESC(?:RIBE)?\\s+(\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$.]*)");

    private ConsoleShortcuts() {
    }

    /** The sqlline command for {@code statement} (trimmed, without its semicolon), or null when it is plain SQL. */
    public static String command(String statement) {
        String s = statement.trim();
        String words = s.replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        if (words.equals("EXIT") || words.equals("QUIT")) {
            return "!quit";
        }
        if (words.equals("SHOW TABLES")) {
            return "!tables";
        }
        Matcher m = DESCRIBE.matcher(s);
        if (m.matches()) {
            String name = m.group(1);
            // an unquoted name is stored in upper case, as SQL folds it
            return "!describe " + (name.startsWith("\"") ? name.substring(1, name.length() - 1) : name.toUpperCase(Locale.ROOT));
        }
        return null;
    }
}
