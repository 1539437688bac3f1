package io.kegdb.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * KegDB's JDBC driver. URLs: {@code jdbc:kegdb:<dir>} (created if missing) and {@code jdbc:kegdb:mem:<name>}
 * (in memory, gone when its last connection closes), with options as {@code ?k=v&k2=v2} or
 * {@link Properties}: {@code durability=sync|nosync}, {@code readOnly=true}, and engine options
 * ({@code segmentSize}, {@code mergeInterval}, ...). Registered through {@code META-INF/services}, so
 * {@link DriverManager#getConnection(String)} finds it without {@code Class.forName}.
 */
public final class KegDriver implements Driver {

    static {
        try {
            DriverManager.registerDriver(new KegDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Creates a driver; normally done by {@link DriverManager}. */
    public KegDriver() {
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null; // the Driver contract: not ours, let DriverManager try the next driver
        }
        ConnectionSettings settings = ConnectionSettings.parse(url, info);
        SharedStore shared = StoreRegistry.instance().acquire(settings);
        try {
            return new KegConnection(settings, shared);
        } catch (RuntimeException e) {
            StoreRegistry.instance().release(shared);
            throw JdbcErrors.from(e);
        }
    }

    @Override
    public boolean acceptsURL(String url) {
        return ConnectionSettings.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        ConnectionOption[] options = ConnectionOption.values();
        DriverPropertyInfo[] result = new DriverPropertyInfo[options.length];
        for (int i = 0; i < options.length; i++) {
            ConnectionOption o = options[i];
            DriverPropertyInfo p = new DriverPropertyInfo(o.key(), info == null ? null : info.getProperty(o.key()));
            p.required = false;
            if (o == ConnectionOption.DURABILITY) {
                p.choices = new String[] {"sync", "nosync"};
            } else if (o == ConnectionOption.READ_ONLY || o == ConnectionOption.REPAIR) {
                p.choices = new String[] {"true", "false"};
            }
            p.description = o.isEngineOption() ? "engine option, used by the connection that opens the store"
                    : "connection option";
            result[i] = p;
        }
        return result;
    }

    @Override
    public int getMajorVersion() {
        return DriverVersion.MAJOR;
    }

    @Override
    public int getMinorVersion() {
        return DriverVersion.MINOR;
    }

    /** Not yet: the SQL layer is not fully SQL-92 entry level. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw JdbcErrors.unsupported("java.util.logging (KegDB logs through SLF4J)");
    }
}
