package io.kegdb.tests.process;

import io.kegdb.engine.Bitcask;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opens a store and holds it until killed (prints OPEN), or reports that it was refused (prints
 * {@code REFUSED <message>}, or {@code REFUSED <SQLState> <message>} through JDBC). Args: directory, and
 * optionally {@code jdbc} to open through the driver (committing one row, K = 'held', before OPEN).
 */
public final class StoreHolderChild {

    private StoreHolderChild() {
    }

    @SuppressWarnings("try") // the store is held open, unused, until the test kills this process
    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("jdbc")) {
            try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + args[0]);
                 Statement s = c.createStatement()) {
                s.executeUpdate("UPSERT INTO KV VALUES ('held', 'by the holder')");
                hold();
            } catch (SQLException e) {
                System.out.println("REFUSED " + e.getSQLState() + " " + e.getMessage());
                System.out.flush();
            }
            return;
        }
        try (Bitcask db = Bitcask.open(Path.of(args[0]))) {
            hold();
        } catch (IOException e) {
            System.out.println("REFUSED " + e.getMessage());
            System.out.flush();
        }
    }

    private static void hold() throws InterruptedException {
        System.out.println("OPEN");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
