package io.kegdb.jdbc.console;

import sqlline.Application;

import java.util.List;

/** sqlline's application settings for KegDB: the banner says what the console is and how to find one's way. */
final class ConsoleApplication extends Application {

    private final String version;

    ConsoleApplication(String version) {
        this.version = version;
    }

    @Override
    public String getInfoMessage() {
        return "KegDB " + version + " SQL console. !help lists the commands, !tables the tables, "
                + "!describe T (or DESCRIBE T) a table's columns; !quit or exit leaves.";
    }

    @Override
    public List<String> allowedDrivers() {
        return List.of("io.kegdb.jdbc.KegDriver");
    }

    @Override
    public List<String> getConnectionUrlExamples() {
        return List.of("jdbc:kegdb:/path/to/dir", "jdbc:kegdb:raft://host1:port1,host2:port2,host3:port3/group");
    }
}
