package io.kegdb.tests.crash;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.Random;

/**
 * The process {@link ContendedCommitCrashTest} kills: {@value #THREADS} threads, one JDBC connection each,
 * run {@link ContendedOp}s on a few hot rows until killed: bank transfers between {@value #ACCOUNTS} accounts
 * (read both balances, write both moved, commit) and counter increments (read, write read + 1, commit), as
 * transactions at SERIALIZABLE or REPEATABLE_READ, and autocommitted {@code UPDATE CTR SET V = V + 1}. An
 * attempt that fails with 40001 wrote nothing and is run again from its first read.
 *
 * <p>Each operation is printed as one flushed line before its first attempt, {@code TRY <thread> <seq> <op>},
 * and again once {@code commit()} (or the autocommitted statement) has returned,
 * {@code ACK <thread> <seq> <attempts> <op>}; so at a kill each thread has at most one operation that may or
 * may not have taken effect. An unexpected failure prints {@code FAILED <thread> <exception>} and ends the
 * process. Arguments: directory, durability ({@code sync} or {@code nosync}), seed.
 */
public final class ContendedCommitterChild {
    static final int THREADS = 6;
    static final int ACCOUNTS = 5;
    static final int COUNTERS = 3;
    static final long OPENING_BALANCE = 1000;

    private ContendedCommitterChild() {
    }

    static String url(Path dir, String durability) {
        // Small segments, so commits also cross segment rolls.
        return "jdbc:kegdb:" + dir + "?durability=" + durability + "&segmentSize=64k";
    }

    /** Creates the bank and the counters in one new store, every row in one transaction. */
    static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE BANK (K BIGINT PRIMARY KEY, V BIGINT)");
            s.execute("CREATE TABLE CTR (K BIGINT PRIMARY KEY, V BIGINT)");
        }
        c.setAutoCommit(false);
        try (PreparedStatement bank = c.prepareStatement("INSERT INTO BANK VALUES (?, ?)");
             PreparedStatement ctr = c.prepareStatement("INSERT INTO CTR VALUES (?, 0)")) {
            for (int k = 0; k < ACCOUNTS; k++) {
                bank.setLong(1, k);
                bank.setLong(2, OPENING_BALANCE);
                bank.executeUpdate();
            }
            for (int k = 0; k < COUNTERS; k++) {
                ctr.setLong(1, k);
                ctr.executeUpdate();
            }
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String durability = args[1];
        long seed = Long.parseLong(args[2]);
        // Connections and statements are ready before OPEN, so the test's clock starts with the workload.
        Worker[] workers = new Worker[THREADS];
        for (int t = 0; t < THREADS; t++) {
            workers[t] = new Worker(DriverManager.getConnection(url(dir, durability)));
        }
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Random rnd = new Random(seed + t);
            threads[t] = new Thread(() -> {
                try (Worker w = workers[thread]) {
                    for (long seq = 0; ; seq++) {
                        ContendedOp op = ContendedOp.random(rnd);
                        report("TRY " + thread + " " + seq + " " + op);
                        int attempts = w.run(op);
                        report("ACK " + thread + " " + seq + " " + attempts + " " + op);
                    }
                } catch (Throwable e) {
                    report("FAILED " + thread + " " + e);
                    e.printStackTrace();
                    Runtime.getRuntime().halt(1);
                }
            }, "contender-" + t);
        }
        report("OPEN");
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void report(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** One thread's connection and statements. */
    private static final class Worker implements AutoCloseable {
        private final Connection c;
        private final PreparedStatement balance;
        private final PreparedStatement setBalance;
        private final PreparedStatement counter;
        private final PreparedStatement setCounter;
        private final PreparedStatement increment;

        Worker(Connection c) throws SQLException {
            this.c = c;
            balance = c.prepareStatement("SELECT V FROM BANK WHERE K = ?");
            setBalance = c.prepareStatement("UPDATE BANK SET V = ? WHERE K = ?");
            counter = c.prepareStatement("SELECT V FROM CTR WHERE K = ?");
            setCounter = c.prepareStatement("UPDATE CTR SET V = ? WHERE K = ?");
            increment = c.prepareStatement("UPDATE CTR SET V = V + 1 WHERE K = ?");
        }

        /** Runs {@code op} until it commits; returns the attempts it took. */
        int run(ContendedOp op) throws SQLException {
            for (int attempt = 1; ; attempt++) {
                try {
                    attempt(op);
                    return attempt;
                } catch (SQLTransactionRollbackException e) {
                    if (!c.getAutoCommit()) {
                        c.rollback();
                    }
                }
            }
        }

        private void attempt(ContendedOp op) throws SQLException {
            if (op.kind() == ContendedOp.Kind.AUTO) {
                c.setAutoCommit(true);
                update(increment, op.first());
                return;
            }
            c.setAutoCommit(false);
            c.setTransactionIsolation(op.level());
            if (op.kind() == ContendedOp.Kind.TRANSFER) {
                long from = read(balance, op.first());
                long to = read(balance, op.second());
                update(setBalance, from - op.amount(), op.first());
                update(setBalance, to + op.amount(), op.second());
            } else {
                update(setCounter, read(counter, op.first()) + 1, op.first());
            }
            c.commit();
        }

        private static long read(PreparedStatement select, long key) throws SQLException {
            select.setLong(1, key);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("row " + key + " missing");
                }
                return rs.getLong(1);
            }
        }

        private static void update(PreparedStatement update, long... params) throws SQLException {
            for (int i = 0; i < params.length; i++) {
                update.setLong(i + 1, params[i]);
            }
            int count = update.executeUpdate();
            if (count != 1) {
                throw new IllegalStateException("update changed " + count + " rows, not 1");
            }
        }

        @Override
        public void close() throws SQLException {
            c.close();
        }
    }
}
