package io.kegdb.raft;

import java.nio.charset.StandardCharsets;

/** Keys and values of the replicated-store tests as UTF-8 text. */
public final class TestBytes {

    private TestBytes() {
    }

    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
