package io.kegdb.jdbc;

import io.kegdb.engine.meter.Meter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of the KegDB store behind a {@link DataSource} (a {@link KegDataSource}, or a pool such as HikariCP
 * over KegDB URLs), for an application that uses Micrometer: register it with a {@link MeterRegistry}, or
 * declare it as a bean and Spring Boot binds it.
 *
 * <pre>{@code
 * new KegMeterBinder(dataSource).bindTo(registry);
 * // Spring Boot: @Bean MeterBinder kegdbMeters(DataSource dataSource) { return new KegMeterBinder(dataSource); }
 * }</pre>
 *
 * Each meter keeps its KegDB name ({@code kegdb.engine.keys}, see docs/OPERATIONS.md) and gets the tag
 * {@code store} (the directory, {@code mem:name} or cluster). Counters become {@link FunctionCounter}s, gauges
 * {@link Gauge}s, latency histograms {@link FunctionTimer}s, other histograms two counters ({@code ....count},
 * {@code ....sum}). Values are read from the store open in this JVM when the registry asks: NaN while it is
 * closed, and again the store's (counters from 0) once it is reopened.
 *
 * <p>Micrometer is an optional dependency of the driver: this is the only class that uses it, and nothing
 * else loads it, so the driver works without Micrometer on the class path.
 */
public final class KegMeterBinder implements MeterBinder {

    private final DataSource dataSource;
    private final Iterable<Tag> extraTags;

    /** Binds the meters of {@code dataSource}'s store. */
    public KegMeterBinder(DataSource dataSource) {
        this(dataSource, Tags.empty());
    }

    /** Binds the meters of {@code dataSource}'s store, each also with {@code tags}. */
    public KegMeterBinder(DataSource dataSource, Iterable<Tag> tags) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.extraTags = Objects.requireNonNull(tags, "tags");
    }

    /**
     * Opens a connection to learn which store the data source reaches (and to open it, if no connection had),
     * registers its meters, and closes the connection.
     *
     * @throws IllegalStateException if no connection can be made or it is not a KegDB connection
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        String key;
        List<Meter> meters;
        try (Connection c = dataSource.getConnection()) {
            if (!c.isWrapperFor(KegConnection.class)) {
                throw new IllegalStateException("not a KegDB data source: its connections are " + c.getClass().getName());
            }
            SharedStore shared = c.unwrap(KegConnection.class).shared();
            key = shared.key();
            meters = shared.database().meters();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to bind KegDB's meters: " + e.getMessage(), e);
        }
        for (Meter m : meters) {
            register(registry, key, m);
        }
    }

    private void register(MeterRegistry registry, String key, Meter m) {
        List<Tag> tags = new ArrayList<>();
        tags.add(Tag.of("store", key));
        for (Map.Entry<String, String> t : m.tags().entrySet()) {
            tags.add(Tag.of(t.getKey(), t.getValue()));
        }
        Tags all = Tags.of(tags).and(extraTags);
        String unit = m.unit().suffix().isEmpty() ? null : m.unit().suffix();
        LiveMeter live = new LiveMeter(key, SharedStore.meterId(m));
        // Micrometer holds the object a function meter reads weakly: the registry of open stores lives as long
        // as the driver's classes, and each function keeps its own meter's key.
        StoreRegistry stores = StoreRegistry.instance();
        switch (m.type()) {
            case COUNTER -> FunctionCounter.builder(m.name(), stores, s -> live.value(s)).description(m.description())
                    .baseUnit(unit).tags(all).register(registry);
            case GAUGE -> Gauge.builder(m.name(), stores, s -> live.value(s)).description(m.description())
                    .baseUnit(unit).tags(all).register(registry);
            case HISTOGRAM -> {
                if ("seconds".equals(unit)) {
                    FunctionTimer.builder(m.name(), stores, s -> live.observations(s), s -> live.sum(s),
                            TimeUnit.SECONDS).description(m.description()).tags(all).register(registry);
                } else {
                    counter(registry, m.name() + ".count", m.description() + " (observations)", stores,
                            s -> live.count(s), all);
                    counter(registry, m.name() + ".sum", m.description() + " (sum)", stores, s -> live.sum(s), all);
                }
            }
        }
    }

    private static void counter(MeterRegistry registry, String name, String description, StoreRegistry stores,
                                ToDoubleFunction<StoreRegistry> f, Tags tags) {
        FunctionCounter.builder(name, stores, f).description(description).tags(tags).register(registry);
    }

    /** A meter of whichever store is open under {@code key} when it is read. */
    private record LiveMeter(String key, String id) {

        private Meter current(StoreRegistry stores) {
            SharedStore shared = stores.current(key);
            return shared == null ? null : shared.meter(id);
        }

        double value(StoreRegistry stores) {
            Meter m = current(stores);
            return m == null ? Double.NaN : m.read();
        }

        double count(StoreRegistry stores) {
            Meter m = current(stores);
            return m == null ? Double.NaN : m.histogram().count();
        }

        /** The count for a timer, which Micrometer takes as a whole number: 0 while the store is closed. */
        long observations(StoreRegistry stores) {
            Meter m = current(stores);
            return m == null ? 0 : m.histogram().count();
        }

        double sum(StoreRegistry stores) {
            Meter m = current(stores);
            return m == null ? Double.NaN : m.histogram().sum();
        }
    }
}
