package io.kegdb.bench;

import java.util.Locale;

/**
 * One row of the go-bitcask table: put {@code keys} distinct keys of {@code keySize} bytes with values of
 * {@code valueSize} bytes, then read as many random keys.
 */
record Workload(long keys, int keySize, int valueSize) {

    Workload {
        if (keys < 1) {
            throw new IllegalArgumentException("keys " + keys + " is below 1");
        }
        if (keySize < KeySpace.MIN_KEY_SIZE || keySize > 511) {
            throw new IllegalArgumentException("keySize " + keySize + " outside [" + KeySpace.MIN_KEY_SIZE + ", 511]");
        }
        if (valueSize < KeySpace.MIN_VALUE_SIZE || valueSize > KeySpace.MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("valueSize " + valueSize + " outside ["
                    + KeySpace.MIN_VALUE_SIZE + ", " + KeySpace.MAX_VALUE_SIZE + "]");
        }
    }

    /** Parses {@code COUNT:KEYBYTES:VALUEBYTES}, where COUNT may end in k or M (1000s, millions). */
    static Workload parse(String text) {
        String[] parts = text.trim().split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("workload '" + text + "' is not COUNT:KEYBYTES:VALUEBYTES, e.g. 1M:8:128");
        }
        try {
            return new Workload(parseCount(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("workload '" + text + "' has a non-numeric part", e);
        }
    }

    static long parseCount(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long scale = 1;
        if (t.endsWith("k")) {
            scale = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            scale = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(t), scale);
    }

    /** Label as accepted by {@link #parse}, e.g. {@code 10M:8:128}. */
    String label() {
        String count;
        if (keys % 1_000_000 == 0) {
            count = keys / 1_000_000 + "M";
        } else if (keys % 1_000 == 0) {
            count = keys / 1_000 + "k";
        } else {
            count = Long.toString(keys);
        }
        return count + ":" + keySize + ":" + valueSize;
    }
}
