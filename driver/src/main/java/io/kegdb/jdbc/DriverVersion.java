package io.kegdb.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The driver's (and database's) version, from the build. */
final class DriverVersion {
    static final String VERSION;
    static final int MAJOR;
    static final int MINOR;

    static {
        String v = "0.0.0";
        try (InputStream in = DriverVersion.class.getResourceAsStream("driver.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                v = p.getProperty("version", v);
            }
        } catch (IOException e) {
            // keep the fallback; the version is informational
        }
        VERSION = v;
        String[] parts = v.split("[.-]");
        MAJOR = parseOrZero(parts, 0);
        MINOR = parseOrZero(parts, 1);
    }

    private DriverVersion() {
    }

    private static int parseOrZero(String[] parts, int i) {
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
