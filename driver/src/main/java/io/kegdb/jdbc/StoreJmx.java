package io.kegdb.jdbc;

import io.kegdb.engine.meter.MeterMBean;
import io.kegdb.sql.SqlDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.ObjectName;
import java.util.List;

/**
 * The JMX MBean of an open store, {@code io.kegdb:type=Store,name="<directory, mem:name or raft client>"}:
 * the store's and its SQL layer's meters as attributes, and the operation {@code resetStatements} (forgets
 * SYS.STATEMENTS). Registered when the store opens in this JVM, unregistered when its last connection closes.
 */
final class StoreJmx {

    private static final Logger LOG = LoggerFactory.getLogger(StoreJmx.class);

    private StoreJmx() {
    }

    /** The MBean name of the store {@code key}. */
    static ObjectName name(String key) {
        try {
            return new ObjectName("io.kegdb:type=Store,name=" + ObjectName.quote(key));
        } catch (JMException e) {
            throw new IllegalStateException("no MBean name for " + key, e);
        }
    }

    /**
     * Registers the MBean of {@code database}; null, with a warning logged, if JMX refuses it (another MBean
     * took the name: a second copy of the driver in this JVM with the same store open): the store works the
     * same, only without its MBean.
     */
    static MeterMBean.Registration register(String key, SqlDatabase database) {
        MeterMBean bean = new MeterMBean("KegDB store " + key, database.meters(), List.of(
                new MeterMBean.Operation("resetStatements", "Forgets the statement statistics of SYS.STATEMENTS.",
                        database::resetStatementStatistics)));
        try {
            return bean.register(name(key));
        } catch (JMException | SecurityException e) {
            LOG.warn("store {} has no JMX MBean: {}", key, e.toString());
            return null;
        }
    }
}
