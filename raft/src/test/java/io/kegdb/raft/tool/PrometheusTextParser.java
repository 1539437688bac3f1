package io.kegdb.raft.tool;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, character by character, for tests: it
 * fails (IllegalArgumentException naming the line) on anything the format does not allow — a bad metric or
 * label name, a bad escape, a value that is not a float, a sample before its family's TYPE, a TYPE given
 * twice, a sample name that does not belong to its family, a repeated series, histogram buckets that are not
 * cumulative, ascending and closed by {@code +Inf} equal to {@code _count}.
 */
final class PrometheusTextParser {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    record Family(String name, String type, String help, List<Sample> samples) {
        /** The one sample named {@code name} with exactly these labels among others, or an error. */
        Sample sample(String sampleName, Map<String, String> having) {
            Sample found = null;
            for (Sample s : samples) {
                if (s.name().equals(sampleName) && s.labels().entrySet().containsAll(having.entrySet())) {
                    if (found != null) {
                        throw new AssertionError("two samples " + sampleName + " with " + having);
                    }
                    found = s;
                }
            }
            if (found == null) {
                throw new AssertionError("no sample " + sampleName + " with " + having + " in " + samples);
            }
            return found;
        }
    }

    private PrometheusTextParser() {
    }

    static Map<String, Family> parse(String text) {
        Map<String, Family> families = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        Set<String> series = new HashSet<>();
        Family current = null;
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            try {
                if (line.startsWith("#")) {
                    String[] parts = line.split(" ", 4);
                    if (parts.length >= 3 && parts[1].equals("HELP")) {
                        checkMetricName(parts[2]);
                        help.put(parts[2], parts.length == 4 ? unescapeHelp(parts[3]) : "");
                    } else if (parts.length == 4 && parts[1].equals("TYPE")) {
                        checkMetricName(parts[2]);
                        if (!Set.of("counter", "gauge", "histogram", "summary", "untyped").contains(parts[3])) {
                            throw new IllegalArgumentException("unknown type " + parts[3]);
                        }
                        if (families.containsKey(parts[2])) {
                            throw new IllegalArgumentException("second TYPE for " + parts[2]);
                        }
                        current = new Family(parts[2], parts[3], help.get(parts[2]), new ArrayList<>());
                        families.put(parts[2], current);
                    }
                    continue;
                }
                Sample s = sample(line);
                if (current == null || !belongs(current, s.name())) {
                    throw new IllegalArgumentException("sample " + s.name() + " outside its family's TYPE block");
                }
                if (!series.add(s.name() + s.labels())) {
                    throw new IllegalArgumentException("repeated series " + s.name() + s.labels());
                }
                current.samples().add(s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + lineNo + " '" + line + "': " + e.getMessage(), e);
            }
        }
        for (Family f : families.values()) {
            if (f.type().equals("histogram")) {
                checkHistogram(f);
            }
        }
        return families;
    }

    private static boolean belongs(Family f, String sample) {
        if (f.type().equals("histogram")) {
            return sample.equals(f.name() + "_bucket") || sample.equals(f.name() + "_sum")
                    || sample.equals(f.name() + "_count");
        }
        return sample.equals(f.name());
    }

    private static void checkHistogram(Family f) {
        Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample s : f.samples()) {
            Map<String, String> key = new LinkedHashMap<>(s.labels());
            key.remove("le");
            if (s.name().endsWith("_bucket")) {
                if (!s.labels().containsKey("le")) {
                    throw new IllegalArgumentException(f.name() + ": bucket without le");
                }
                buckets.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            } else if (s.name().endsWith("_count")) {
                counts.put(key, s.value());
            }
        }
        for (Map.Entry<Map<String, String>, List<Sample>> e : buckets.entrySet()) {
            double previousLe = Double.NEGATIVE_INFINITY;
            double previousCount = 0;
            List<Sample> bs = e.getValue();
            for (Sample b : bs) {
                double le = number(b.labels().get("le"));
                if (le <= previousLe || b.value() < previousCount) {
                    throw new IllegalArgumentException(f.name() + ": buckets not ascending and cumulative: " + bs);
                }
                previousLe = le;
                previousCount = b.value();
            }
            if (previousLe != Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException(f.name() + ": no +Inf bucket");
            }
            Double count = counts.get(e.getKey());
            if (count == null || count != previousCount) {
                throw new IllegalArgumentException(f.name() + ": _count " + count + " is not the +Inf bucket " + previousCount);
            }
        }
    }

    private static Sample sample(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        checkMetricName(name);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (i < n && line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int start = i;
                while (i < n && line.charAt(i) != '=') {
                    i++;
                }
                String label = line.substring(start, i);
                checkLabelName(label);
                if (i + 1 >= n || line.charAt(i + 1) != '"') {
                    throw new IllegalArgumentException("label " + label + " has no quoted value");
                }
                i += 2;
                StringBuilder value = new StringBuilder();
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("unterminated label value");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\') {
                        if (i >= n) {
                            throw new IllegalArgumentException("dangling escape");
                        }
                        char e = line.charAt(i++);
                        switch (e) {
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            case 'n' -> value.append('\n');
                            default -> throw new IllegalArgumentException("bad escape \\" + e);
                        }
                    } else {
                        value.append(c);
                    }
                }
                if (labels.put(label, value.toString()) != null) {
                    throw new IllegalArgumentException("label " + label + " twice");
                }
                if (i < n && line.charAt(i) == ',') {
                    i++;
                } else if (i >= n || line.charAt(i) != '}') {
                    throw new IllegalArgumentException("expected , or } after a label");
                }
            }
        }
        if (i >= n || line.charAt(i) != ' ') {
            throw new IllegalArgumentException("no value");
        }
        String[] rest = line.substring(i + 1).split(" ");
        if (rest.length < 1 || rest.length > 2) {
            throw new IllegalArgumentException("expected a value and an optional timestamp");
        }
        if (rest.length == 2) {
            Long.parseLong(rest[1]);
        }
        return new Sample(name, labels, number(rest[0]));
    }

    private static double number(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                for (int k = 0; k < s.length(); k++) {
                    char c = s.charAt(k);
                    if (!(Character.isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                        throw new IllegalArgumentException("not a number: " + s);
                    }
                }
                yield Double.parseDouble(s);
            }
        };
    }

    private static void checkMetricName(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty metric name");
        }
        for (int k = 0; k < name.length(); k++) {
            char c = name.charAt(k);
            boolean ok = c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || (k > 0 && c >= '0' && c <= '9');
            if (!ok) {
                throw new IllegalArgumentException("bad metric name " + name);
            }
        }
    }

    private static void checkLabelName(String name) {
        if (name.isEmpty() || name.startsWith("__")) {
            throw new IllegalArgumentException("bad label name '" + name + "'");
        }
        for (int k = 0; k < name.length(); k++) {
            char c = name.charAt(k);
            boolean ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (k > 0 && c >= '0' && c <= '9');
            if (!ok) {
                throw new IllegalArgumentException("bad label name " + name);
            }
        }
    }

    private static String unescapeHelp(String s) {
        return s.replace("\\n", "\n").replace("\\\\", "\\");
    }
}
