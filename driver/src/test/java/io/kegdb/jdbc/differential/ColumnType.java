package io.kegdb.jdbc.differential;

import java.util.HexFormat;
import java.util.Random;

/**
 * A KegDB column type and the values the test draws for it: small domains, so random keys collide, ranges and
 * prefixes hit rows, and joins find matches. Strings are ASCII from a few letters (upper and lower case, and
 * {@code _}, a LIKE wildcard) with no spaces, so CHAR padding and collation cannot make the databases differ.
 */
enum ColumnType {
    VARCHAR {
        @Override
        Object value(Random r) {
            int length = r.nextInt(5);
            StringBuilder sb = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                sb.append(LETTERS.charAt(r.nextInt(LETTERS.length())));
            }
            return sb.toString();
        }

        @Override
        String literal(Object value) {
            return "'" + value + "'";
        }
    },
    BIGINT {
        @Override
        Object value(Random r) {
            return (long) (r.nextInt(61) - 30);
        }

        @Override
        String literal(Object value) {
            return value.toString();
        }
    },
    VARBINARY {
        @Override
        Object value(Random r) {
            byte[] b = new byte[r.nextInt(3)];
            for (int i = 0; i < b.length; i++) {
                b[i] = BYTES[r.nextInt(BYTES.length)];
            }
            return b;
        }

        @Override
        String literal(Object value) {
            return "X'" + HexFormat.of().formatHex((byte[]) value) + "'";
        }
    };

    private static final String LETTERS = "abcB_";
    /** Both ends of the signed and unsigned orders, so a signed byte comparison would show. */
    private static final byte[] BYTES = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};

    /** A random value of the type. */
    abstract Object value(Random r);

    /** The value as an SQL literal both databases read the same way. */
    abstract String literal(Object value);

    /** A random literal of the type. */
    String randomLiteral(Random r) {
        return literal(value(r));
    }
}
