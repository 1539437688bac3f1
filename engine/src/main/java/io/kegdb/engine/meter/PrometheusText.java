package io.kegdb.engine.meter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes meters in the Prometheus text exposition format (version 0.0.4): one {@code # HELP} and
 * {@code # TYPE} per name, counters with the {@code _total} suffix, histograms as {@code _bucket}
 * (cumulative, {@code le} label), {@code _sum} and {@code _count}. Meters of one name with different tags
 * are written under one header.
 */
public final class PrometheusText {

    /** The content type of a scrape answer. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** The Prometheus name of a meter name: dots become underscores. */
    public static String name(String meterName) {
        return meterName.replace('.', '_');
    }

    /** Appends {@code meters} to {@code out}, each with the labels {@code common} before its own tags. */
    public static void write(List<Meter> meters, Map<String, String> common, StringBuilder out) {
        Map<String, List<Meter>> byName = new LinkedHashMap<>();
        for (Meter m : meters) {
            byName.computeIfAbsent(m.name(), k -> new java.util.ArrayList<>()).add(m);
        }
        for (List<Meter> group : byName.values()) {
            Meter first = group.get(0);
            String base = name(first.name());
            String family = first.type() == MeterType.COUNTER ? base + "_total" : base;
            out.append("# HELP ").append(family).append(' ');
            escapeHelp(first.description(), out);
            out.append('\n');
            out.append("# TYPE ").append(family).append(' ').append(switch (first.type()) {
                case COUNTER -> "counter";
                case GAUGE -> "gauge";
                case HISTOGRAM -> "histogram";
            }).append('\n');
            for (Meter m : group) {
                if (m.type() == MeterType.HISTOGRAM) {
                    writeHistogram(base, m, common, out);
                } else {
                    sample(family, m.tags(), common, null, m.read(), out);
                }
            }
        }
    }

    private static void writeHistogram(String base, Meter m, Map<String, String> common, StringBuilder out) {
        Histogram h = m.histogram();
        double[] bounds = h.upperBounds();
        long[] counts = h.cumulativeCounts();
        for (int i = 0; i < counts.length; i++) {
            String le = i < bounds.length ? number(bounds[i]) : "+Inf";
            sample(base + "_bucket", m.tags(), common, le, counts[i], out);
        }
        sample(base + "_sum", m.tags(), common, null, h.sum(), out);
        sample(base + "_count", m.tags(), common, null, counts[counts.length - 1], out);
    }

    private static void sample(String name, Map<String, String> tags, Map<String, String> common, String le,
                               double value, StringBuilder out) {
        out.append(name);
        if (!tags.isEmpty() || !common.isEmpty() || le != null) {
            out.append('{');
            boolean first = true;
            for (Map<String, String> labels : List.of(common, tags)) {
                for (Map.Entry<String, String> e : labels.entrySet()) {
                    first = label(e.getKey(), e.getValue(), first, out);
                }
            }
            if (le != null) {
                label("le", le, first, out);
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    private static boolean label(String key, String value, boolean first, StringBuilder out) {
        if (!first) {
            out.append(',');
        }
        out.append(key).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        out.append('"');
        return false;
    }

    private static void escapeHelp(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    private static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
