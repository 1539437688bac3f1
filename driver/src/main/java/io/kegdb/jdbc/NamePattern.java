package io.kegdb.jdbc;

import java.util.regex.Pattern;

/**
 * A DatabaseMetaData name pattern: {@code %} any run, {@code _} one character, {@code \} escapes; null or
 * {@code %} matches everything. Names match exactly (identifiers are stored in their final case).
 */
final class NamePattern {
    private static final NamePattern ANY = new NamePattern(null);

    private final Pattern regex;

    private NamePattern(Pattern regex) {
        this.regex = regex;
    }

    static NamePattern of(String pattern) {
        if (pattern == null || pattern.equals("%")) {
            return ANY;
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new NamePattern(Pattern.compile(re.toString(), Pattern.DOTALL));
    }

    /**
     * For calls whose argument is a name, not a pattern ({@code getPrimaryKeys}, {@code getIndexInfo}):
     * exact, except that null and {@code %} mean every table, as tools pass them.
     */
    static NamePattern nameOrAll(String name) {
        if (name == null || name.equals("%")) {
            return ANY;
        }
        return new NamePattern(Pattern.compile(Pattern.quote(name)));
    }

    boolean matches(String name) {
        return regex == null || (name != null && regex.matcher(name).matches());
    }
}
