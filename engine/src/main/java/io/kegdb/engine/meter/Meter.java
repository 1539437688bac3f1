package io.kegdb.engine.meter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.regex.Pattern;

/**
 * One meter: a stable dotted name ({@code kegdb.engine.fsync.seconds}), its type and base unit, what it means,
 * tags that tell apart meters of one name ({@code peer=h:p}), and where its value comes from: a supplier read
 * at export time (counters and gauges) or a {@link Histogram}. The exporters turn the dotted name into their
 * own spelling (JMX attribute {@code engine.fsync.seconds}, Prometheus {@code kegdb_engine_fsync_seconds}).
 *
 * @param name        lower-case words joined by dots, starting {@code kegdb.}, ending with the unit's suffix
 * @param type        counter, gauge or histogram
 * @param unit        the base unit of the value
 * @param description what it counts or measures, one sentence
 * @param tags        extra dimensions (may be empty), in order
 * @param value       the current value (counters and gauges); null for a histogram
 * @param histogram   the distribution (histograms); null otherwise
 */
public record Meter(String name, MeterType type, MeterUnit unit, String description, Map<String, String> tags,
                    DoubleSupplier value, Histogram histogram) {

    private static final Pattern NAME = Pattern.compile("kegdb(\\.[a-z][a-z0-9]*)+");

    public Meter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(description, "description");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("meter name must be kegdb.word.word...: " + name);
        }
        if (!unit.suffix().isEmpty() && !name.endsWith("." + unit.suffix())) {
            throw new IllegalArgumentException("a meter in " + unit.suffix() + " must end with ." + unit.suffix()
                    + ": " + name);
        }
        if ((type == MeterType.HISTOGRAM) != (histogram != null) || (histogram == null) == (value == null)) {
            throw new IllegalArgumentException(name + ": a histogram has a Histogram, other meters a value");
        }
        Objects.requireNonNull(tags, "tags");
        tags = tags.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A counter read from {@code value}. */
    public static Meter counter(String name, MeterUnit unit, String description, DoubleSupplier value) {
        return new Meter(name, MeterType.COUNTER, unit, description, Map.of(), value, null);
    }

    /** A gauge read from {@code value}. */
    public static Meter gauge(String name, MeterUnit unit, String description, DoubleSupplier value) {
        return new Meter(name, MeterType.GAUGE, unit, description, Map.of(), value, null);
    }

    /** A histogram. */
    public static Meter histogram(String name, MeterUnit unit, String description, Histogram histogram) {
        return new Meter(name, MeterType.HISTOGRAM, unit, description, Map.of(), null, histogram);
    }

    /** This meter with one more tag. */
    public Meter tagged(String key, String tagValue) {
        Map<String, String> more = new LinkedHashMap<>(tags);
        more.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(tagValue, "tagValue"));
        return new Meter(name, type, unit, description, more, value, histogram);
    }

    /**
     * The current value of a counter or gauge; NaN when it cannot be read now (a replicated store without a
     * quorum, a closed store). For a histogram, its count.
     */
    public double read() {
        if (histogram != null) {
            return histogram.count();
        }
        try {
            return value.getAsDouble();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
