package io.kegdb.tests.crash;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/**
 * Child process of {@link CommitCrashTest}: commits transactions of {@value #ROWS} rows through JDBC with
 * durability=sync and records {@code ACK <txn>} after each {@code commit()} returns; every third transaction
 * is rolled back instead. Runs until killed. Args: directory, round, acknowledgement file.
 *
 * <p>Acknowledgements go to a file with one unbuffered {@code write} each: what a killed process wrote is in
 * the page cache and readable afterwards, with no pipe draining racing the process's exit.
 */
public final class JdbcCommitterChild {
    static final int ROWS = 3;

    private JdbcCommitterChild() {
    }

    static String committedKey(int round, int txn, int row) {
        return "c" + round + "-" + txn + "-" + row;
    }

    static String rolledBackKey(int round, int txn, int row) {
        return "r" + round + "-" + txn + "-" + row;
    }

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int round = Integer.parseInt(args[1]);
        try (FileOutputStream acks = new FileOutputStream(args[2], true);
             Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir + "?durability=sync");
             PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
            c.setAutoCommit(false);
            System.out.println("OPEN");
            System.out.flush();
            for (int txn = 0; ; txn++) {
                boolean rollback = txn % 3 == 2;
                for (int row = 0; row < ROWS; row++) {
                    ins.setString(1, rollback ? rolledBackKey(round, txn, row) : committedKey(round, txn, row));
                    ins.setString(2, "txn " + txn);
                    ins.executeUpdate();
                }
                if (rollback) {
                    c.rollback();
                } else {
                    c.commit();
                    acks.write(("ACK " + txn + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
    }
}
