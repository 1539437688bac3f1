package io.kegdb.jdbc.differential;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * A column type of the differential tables and the values the test draws for it: mostly a small domain, so random
 * keys collide, ranges and prefixes hit rows and joins find matches, and now and then an extreme of the type
 * (INTEGER and BIGINT limits, the largest DECIMAL of its precision, its smallest step, large and tiny doubles,
 * -0.0).
 *
 * <p>Strings mix ASCII letters (both cases), {@code _} (a LIKE wildcard), digits, spaces (so TRIM has work) and
 * characters outside ASCII: two-byte, three-byte and a supplementary character. They are chosen so that every
 * order the databases use agrees: UTF-8 bytes (SQLite, KegDB's keys) and UTF-16 units (Java, H2) order them the
 * same way, which characters between U+E000 and U+FFFF would not.
 *
 * <p>SQLite has no exact DECIMAL: a {@code DECIMAL(p,s)} column has NUMERIC affinity and keeps a fraction as a
 * double. Every DECIMAL value here has at most 15 significant digits, so it survives the double, and
 * {@link ResultRows} lets SQLite's vote on an approximate number count within a relative 1e-9; the exact digits
 * KegDB must return are H2's.
 */
enum ColumnType {
    VARCHAR("VARCHAR", "TEXT", Family.TEXT) {
        @Override
        Object value(Random r) {
            int length = r.nextInt(5);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < length; i++) {
                sb.append(r.nextInt(4) == 0 ? RARE.get(r.nextInt(RARE.size())) : LETTERS.charAt(r.nextInt(LETTERS.length())));
            }
            return sb.toString();
        }

        @Override
        String literal(Object value) {
            return "'" + ((String) value).replace("'", "''") + "'";
        }
    },
    INTEGER("INTEGER", "INTEGER", Family.NUMBER) {
        @Override
        Object value(Random r) {
            return extremes(r) ? INT_EXTREMES[r.nextInt(INT_EXTREMES.length)] : r.nextInt(61) - 30;
        }
    },
    BIGINT("BIGINT", "INTEGER", Family.NUMBER) {
        @Override
        Object value(Random r) {
            return extremes(r) ? LONG_EXTREMES[r.nextInt(LONG_EXTREMES.length)] : (long) (r.nextInt(61) - 30);
        }
    },
    DOUBLE("DOUBLE", "REAL", Family.NUMBER) {
        @Override
        Object value(Random r) {
            // quarters are exact in binary, so sums of them are exact in every order
            return r.nextInt(6) == 0 ? DOUBLE_EXTREMES[r.nextInt(DOUBLE_EXTREMES.length)] : (r.nextInt(81) - 40) / 4.0;
        }

        @Override
        String literal(Object value) {
            double d = (Double) value;
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        }
    },
    /** Twelve integer digits and three fractional: the exact type the DECIMAL/BIGINT common-type rule cuts. */
    DECIMAL_15_3("DECIMAL(15,3)", "NUMERIC", Family.NUMBER) {
        @Override
        Object value(Random r) {
            BigDecimal d = r.nextInt(5) == 0 ? DEC_15_3_EXTREMES[r.nextInt(DEC_15_3_EXTREMES.length)]
                    : BigDecimal.valueOf(r.nextInt(241) - 120, 0).divide(BigDecimal.valueOf(8));
            return d.setScale(3);
        }
    },
    /** Integral DECIMAL with a small precision: sums and products leave its range at once. */
    DECIMAL_5_0("DECIMAL(5,0)", "NUMERIC", Family.NUMBER) {
        @Override
        Object value(Random r) {
            return BigDecimal.valueOf(r.nextInt(5) == 0 ? (r.nextBoolean() ? 99999 : -99999) : r.nextInt(61) - 30);
        }
    },
    /** Fraction only: every value is below one, the smallest is 0.000001. */
    DECIMAL_6_6("DECIMAL(6,6)", "NUMERIC", Family.NUMBER) {
        @Override
        Object value(Random r) {
            BigDecimal d = r.nextInt(4) == 0 ? DEC_6_6_EXTREMES[r.nextInt(DEC_6_6_EXTREMES.length)]
                    : BigDecimal.valueOf(r.nextInt(41) - 20, 3);
            return d.setScale(6);
        }
    },
    VARBINARY("VARBINARY", "BLOB", Family.BYTES) {
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

    /** What a value can be compared with, in all three databases, without a cast. */
    enum Family { TEXT, NUMBER, BYTES }

    private static final String LETTERS = "abcB_ 1";
    private static final List<String> RARE = List.of("é", "日", "😀", " ");
    /** Both ends of the signed and unsigned orders, so a signed byte comparison would show. */
    private static final byte[] BYTES = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};
    private static final Integer[] INT_EXTREMES = {Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, 65536};
    private static final Long[] LONG_EXTREMES = {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, 4294967296L,
        2147483648L, -2147483649L};
    /** -0.0 equals 0.0 in SQL, but Java's Double.equals (which Calcite's grouping and joins use) tells them apart. */
    private static final Double[] DOUBLE_EXTREMES = {1.0E300, -1.0E300, 1.0E15, 2.5E-7, 0.1, -123456.789, -0.0};
    private static final BigDecimal[] DEC_15_3_EXTREMES = {new BigDecimal("999999999999.999"),
        new BigDecimal("-999999999999.999"), new BigDecimal("0.001"), new BigDecimal("0.056"),
        new BigDecimal("123456789.5")};
    private static final BigDecimal[] DEC_6_6_EXTREMES = {new BigDecimal("0.999999"), new BigDecimal("-0.999999"),
        new BigDecimal("0.000009"), new BigDecimal("0.000001")};

    private final String sql;
    private final String sqliteSql;
    private final Family family;

    ColumnType(String sql, String sqliteSql, Family family) {
        this.sql = sql;
        this.sqliteSql = sqliteSql;
        this.family = family;
    }

    /** The type as KegDB and H2 spell it. */
    String sql() {
        return sql;
    }

    /** The type as SQLite declares it, with the affinity it means (VARBINARY alone would be NUMERIC there). */
    String sqliteSql() {
        return sqliteSql;
    }

    Family family() {
        return family;
    }

    boolean numeric() {
        return family == Family.NUMBER;
    }

    /** INTEGER or BIGINT: arithmetic on it must stay exact (and overflow must not wrap). */
    boolean integral() {
        return this == INTEGER || this == BIGINT;
    }

    boolean decimal() {
        return this == DECIMAL_15_3 || this == DECIMAL_5_0 || this == DECIMAL_6_6;
    }

    /** An INTEGER or BIGINT limit this time. */
    private static boolean extremes(Random r) {
        return r.nextInt(6) == 0;
    }

    /** A random value of the type (its Java form, as a JDBC driver binds it). */
    abstract Object value(Random r);

    /** The value as an SQL literal all three databases read the same way. */
    String literal(Object value) {
        return value instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : value.toString();
    }

    /** A random literal of the type. */
    String randomLiteral(Random r) {
        return literal(value(r));
    }
}
