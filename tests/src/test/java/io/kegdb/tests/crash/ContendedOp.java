package io.kegdb.tests.crash;

import java.sql.Connection;
import java.util.Map;
import java.util.Random;

/**
 * One operation of {@link ContendedCommitterChild}, as it travels in the child's output and as the rows it
 * changes. Its text is {@code TRANSFER <level> <from> <to> <amount>}, {@code INCR <level> <counter>} or
 * {@code AUTO <counter>}; rows are named {@code BANK <k>} and {@code CTR <k>}.
 */
record ContendedOp(Kind kind, int level, int first, int second, int amount) {

    enum Kind {
        /** A transaction moving {@code amount} from account {@code first} to {@code second}. */
        TRANSFER,
        /** A transaction reading counter {@code first} and writing it back plus one. */
        INCR,
        /** An autocommitted {@code UPDATE CTR SET V = V + 1} of counter {@code first}. */
        AUTO
    }

    static ContendedOp random(Random rnd) {
        int level = rnd.nextBoolean() ? Connection.TRANSACTION_SERIALIZABLE : Connection.TRANSACTION_REPEATABLE_READ;
        int pick = rnd.nextInt(10);
        if (pick < 4) {
            int from = rnd.nextInt(ContendedCommitterChild.ACCOUNTS);
            int to = (from + 1 + rnd.nextInt(ContendedCommitterChild.ACCOUNTS - 1)) % ContendedCommitterChild.ACCOUNTS;
            return new ContendedOp(Kind.TRANSFER, level, from, to, 1 + rnd.nextInt(50));
        }
        int counter = rnd.nextInt(ContendedCommitterChild.COUNTERS);
        return pick < 7 ? new ContendedOp(Kind.INCR, level, counter, 0, 1)
                : new ContendedOp(Kind.AUTO, Connection.TRANSACTION_READ_COMMITTED, counter, 0, 1);
    }

    /** Parses {@code words[from..]}, the form {@link #toString()} writes. */
    static ContendedOp parse(String[] words, int from) {
        Kind kind = Kind.valueOf(words[from]);
        return switch (kind) {
            case TRANSFER -> new ContendedOp(kind, level(words[from + 1]), Integer.parseInt(words[from + 2]),
                    Integer.parseInt(words[from + 3]), Integer.parseInt(words[from + 4]));
            case INCR -> new ContendedOp(kind, level(words[from + 1]), Integer.parseInt(words[from + 2]), 0, 1);
            case AUTO -> new ContendedOp(kind, Connection.TRANSACTION_READ_COMMITTED, Integer.parseInt(words[from + 1]), 0, 1);
        };
    }

    /** What the operation adds to each row it changes. */
    Map<String, Long> effect() {
        return kind == Kind.TRANSFER
                ? Map.of(bankRow(first), (long) -amount, bankRow(second), (long) amount)
                : Map.of(counterRow(first), 1L);
    }

    /** The kind with its isolation level, as the figures count it. */
    String label() {
        return kind == Kind.AUTO ? "AUTO" : kind + " " + levelName(level);
    }

    static String bankRow(long account) {
        return "BANK " + account;
    }

    static String counterRow(long counter) {
        return "CTR " + counter;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case TRANSFER -> kind + " " + levelName(level) + " " + first + " " + second + " " + amount;
            case INCR -> kind + " " + levelName(level) + " " + first;
            case AUTO -> kind + " " + first;
        };
    }

    private static String levelName(int level) {
        return level == Connection.TRANSACTION_SERIALIZABLE ? "SERIALIZABLE" : "REPEATABLE_READ";
    }

    private static int level(String name) {
        return switch (name) {
            case "SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
            case "REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            default -> throw new IllegalArgumentException("unknown isolation level in the child's output: " + name);
        };
    }
}
