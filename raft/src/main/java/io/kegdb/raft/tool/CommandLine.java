package io.kegdb.raft.tool;

import io.kegdb.raft.security.TlsFiles;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options and positional words of a command line, checked against the known names. */
final class CommandLine {

    final List<String> words;
    private final Map<String, String> options;

    private CommandLine(List<String> words, Map<String, String> options) {
        this.words = words;
        this.options = options;
    }

    static CommandLine parse(String[] args, Set<String> known) {
        Map<String, String> options = new HashMap<>();
        List<String> words = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                String name = a.substring(2);
                String value;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new IllegalArgumentException("--" + name + " needs a value");
                }
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("unknown option --" + name + "; known: --" + String.join(", --", known));
                }
                options.put(name, value);
            } else {
                words.add(a);
            }
        }
        return new CommandLine(words, options);
    }

    /** The TLS options every tool takes: the cluster's CA, this side's certificate and key (PEM files). */
    static final Set<String> TLS_OPTIONS = Set.of("tls-ca", "tls-cert", "tls-key");

    /** The known options plus {@link #TLS_OPTIONS}. */
    static Set<String> withTls(Set<String> known) {
        Set<String> all = new java.util.HashSet<>(known);
        all.addAll(TLS_OPTIONS);
        return Set.copyOf(all);
    }

    /**
     * The TLS files given by {@code --tls-ca}, {@code --tls-cert} and {@code --tls-key}, or null if none is.
     *
     * @param certificateRequired true for a node, which must present its certificate
     */
    TlsFiles tls(boolean certificateRequired) {
        return TlsFiles.of(options.get("tls-ca"), options.get("tls-cert"), options.get("tls-key"), certificateRequired);
    }

    /**
     * The content of the file option {@code name} less one trailing newline (a password file), or null if
     * the option is not given; the file is read, not kept.
     */
    String secretFile(String name) {
        String file = options.get(name);
        if (file == null) {
            return null;
        }
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of(file));
            s = s.endsWith("\r\n") ? s.substring(0, s.length() - 2) : s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
            if (s.isEmpty()) {
                throw new IllegalArgumentException("--" + name + " " + file + " is empty");
            }
            return s;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--" + name + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    String required(String name) {
        String v = options.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    String optional(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    /** A positive whole number, or {@code fallback} when the option is absent. */
    long positiveLong(String name, long fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException("--" + name + " must be a positive number, not " + v);
    }

    boolean has(String name) {
        return options.containsKey(name);
    }

    int intOption(String name, int fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a number, not " + v);
        }
    }
}
