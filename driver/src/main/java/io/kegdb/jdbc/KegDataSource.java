package io.kegdb.jdbc;

import io.kegdb.sql.SqlState;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for frameworks and pools configured by class name (for example HikariCP's
 * {@code dataSourceClassName=io.kegdb.jdbc.KegDataSource} with {@code dataSource.url=jdbc:kegdb:/path}).
 * Each {@link #getConnection()} is a new connection to the shared store of {@link #getUrl()}.
 */
public final class KegDataSource implements DataSource {
    private final KegDriver driver = new KegDriver();
    private volatile String url;
    private volatile Properties properties = new Properties();
    private volatile int loginTimeout;
    private volatile PrintWriter logWriter;

    /** An unconfigured data source; set the URL before use. */
    public KegDataSource() {
    }

    /** A data source for {@code url} ({@code jdbc:kegdb:<dir>} or {@code jdbc:kegdb:mem:<name>}, with options). */
    public KegDataSource(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    /** Connection options, as with {@link java.sql.DriverManager#getConnection(String, Properties)}. */
    public Properties getProperties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }

    public void setProperties(Properties properties) {
        Properties copy = new Properties();
        copy.putAll(properties);
        this.properties = copy;
    }

    @Override
    public Connection getConnection() throws SQLException {
        String u = url;
        if (u == null) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "KegDataSource has no URL (call setUrl)");
        }
        Connection c = driver.connect(u, properties);
        if (c == null) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "not a KegDB URL: " + u);
        }
        return c;
    }

    /** KegDB has no authentication: the user name is recorded for {@code getUserName()}, the password ignored. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        String u = url;
        if (u == null) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "KegDataSource has no URL (call setUrl)");
        }
        Properties p = getProperties();
        if (username != null) {
            p.setProperty("user", username);
        }
        Connection c = driver.connect(u, p);
        if (c == null) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "not a KegDB URL: " + u);
        }
        return c;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /** Kept for the interface; the driver logs through SLF4J. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    /** Kept for the interface; opening an embedded store does not wait on a network. */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw JdbcErrors.unsupported("java.util.logging (KegDB logs through SLF4J)");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SelfWrapper.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
