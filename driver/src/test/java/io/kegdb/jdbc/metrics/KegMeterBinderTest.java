package io.kegdb.jdbc.metrics;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.kegdb.jdbc.KegDataSource;
import io.kegdb.jdbc.KegMeterBinder;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Micrometer sees the same values as the store's MBean, through a pool, and follows a reopened store. */
@Timeout(120)
class KegMeterBinderTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    @Test
    void aSimpleRegistrySeesTheStoresValues() throws Exception {
        double catalogKeys;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:kegdb:" + dir);
        config.setMaximumPoolSize(2);
        String store = dir.toRealPath().toString();
        ObjectName mbean = new ObjectName("io.kegdb:type=Store,name=" + ObjectName.quote(store));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (HikariDataSource pool = new HikariDataSource(config)) {
            new KegMeterBinder(pool, Tags.of("app", "test")).bindTo(registry);
            Tags tags = Tags.of("store", store, "app", "test");
            System.gc(); // the binder itself is garbage now: its meters must not depend on it
            catalogKeys = registry.get("kegdb.engine.keys").tags(tags).gauge().value();
            try (Connection c = pool.getConnection()) {
                try (PreparedStatement p = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                    for (int i = 0; i < 25; i++) {
                        p.setString(1, "k" + i);
                        p.setString(2, "v");
                        p.executeUpdate();
                    }
                }
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT COUNT(*) FROM KV WHERE V > 'a'").close();
                }
            }
            assertEquals(catalogKeys + 25, registry.get("kegdb.engine.keys").tags(tags).gauge().value());
            assertEquals((Double) SERVER.getAttribute(mbean, "engine.keys"),
                    registry.get("kegdb.engine.keys").tags(tags).gauge().value());
            assertEquals((Double) SERVER.getAttribute(mbean, "engine.writes"),
                    registry.get("kegdb.engine.writes").tags(tags).functionCounter().count());
            assertEquals(25, registry.get("kegdb.sql.statements").tags(tags).tag("kind", "insert")
                    .functionCounter().count());
            assertEquals("bytes", registry.get("kegdb.engine.live.bytes").gauge().getId().getBaseUnit());
            FunctionTimer fsync = registry.get("kegdb.engine.fsync.seconds").tags(tags).functionTimer();
            assertEquals((Double) SERVER.getAttribute(mbean, "engine.fsync.seconds.count"), fsync.count());
            assertTrue(fsync.totalTime(TimeUnit.SECONDS) > 0);
            assertEquals((Double) SERVER.getAttribute(mbean, "engine.group.commit.writes.count"),
                    registry.get("kegdb.engine.group.commit.writes.count").functionCounter().count());
        }
        // The pool closed its connections, and so the store: NaN until it is open again.
        assertTrue(Double.isNaN(registry.get("kegdb.engine.keys").gauge().value()));
        KegDataSource again = new KegDataSource("jdbc:kegdb:" + dir);
        try (Connection c = again.getConnection()) {
            assertEquals(catalogKeys + 25, registry.get("kegdb.engine.keys").gauge().value());
            assertEquals(0, registry.get("kegdb.sql.statements").tag("kind", "insert").functionCounter().count(),
                    "counters of the reopened store start from 0");
        }
    }

    @Test
    void aDataSourceOfAnotherDatabaseIsRefused() {
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL("jdbc:h2:mem:binder");
        assertThrows(IllegalStateException.class, () -> new KegMeterBinder(h2).bindTo(new SimpleMeterRegistry()));
    }
}
