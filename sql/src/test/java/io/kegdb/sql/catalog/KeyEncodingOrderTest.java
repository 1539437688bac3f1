package io.kegdb.sql.catalog;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every key encoding sorts, as unsigned bytes, in the order of the values, and decodes back to the value. */
class KeyEncodingOrderTest {

    private static final int TABLE = 42;
    private final Random random = new Random(17);

    @Test
    void integerKeys() {
        check(ColumnType.INTEGER, 0, () -> random.nextInt(4) == 0
                ? List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE).get(random.nextInt(5)) : random.nextInt());
    }

    @Test
    void dateKeysBeforeAndAfter1970() {
        check(ColumnType.DATE, 0, () -> random.nextInt(2_000_000) - 1_000_000);
    }

    @Test
    void timestampKeysBeforeAndAfter1970() {
        check(ColumnType.TIMESTAMP, 0, () -> random.nextLong() / 1000);
    }

    @Test
    void doubleKeysIncludingInfinitiesAndTinyValues() {
        double[] special = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_VALUE, 0.0,
            Double.MIN_VALUE, Double.MIN_NORMAL, 1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY};
        check(ColumnType.DOUBLE, 0, () -> random.nextInt(4) == 0 ? special[random.nextInt(special.length)]
                : (random.nextBoolean() ? -1 : 1) * Math.scalb(random.nextDouble(), random.nextInt(200) - 100));
    }

    @Test
    void negativeZeroIsStoredAsZero() {
        assertEquals(Arrays.toString(ColumnType.DOUBLE.encodeKey(TABLE, 0.0, 0)),
                Arrays.toString(ColumnType.DOUBLE.encodeKey(TABLE, -0.0, 0)));
    }

    @Test
    void decimalKeysAtTheirScaleUpToNineteenDigits() {
        BigDecimal max = new BigDecimal("99999999999999999.99");
        check(ColumnType.DECIMAL, 2, () -> {
            BigDecimal v = switch (random.nextInt(4)) {
                case 0 -> random.nextBoolean() ? max : max.negate();
                case 1 -> BigDecimal.valueOf(random.nextInt(2001) - 1000, 2);
                default -> new BigDecimal(new java.math.BigInteger(64, random), 2).remainder(max)
                        .multiply(BigDecimal.valueOf(random.nextBoolean() ? 1 : -1));
            };
            return v;
        });
    }

    @Test
    void booleanKeys() {
        check(ColumnType.BOOLEAN, 0, random::nextBoolean);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void check(ColumnType type, int scale, Supplier<Object> values) {
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            list.add(values.get());
        }
        List<Object> byValue = new ArrayList<>(list);
        byValue.sort((a, b) -> ((Comparable) a).compareTo(b));
        List<Object> byKey = new ArrayList<>(list);
        byKey.sort(Comparator.comparing(v -> type.encodeKey(TABLE, v, scale), Arrays::compareUnsigned));
        assertEquals(byValue, byKey, type + " keys sort as their values");
        for (Object v : list) {
            Object decoded = type.decodeKey(type.encodeKey(TABLE, v, scale), TableDef.PREFIX_LENGTH, scale);
            assertEquals(0, ((Comparable) v).compareTo(decoded), type + " " + v + " decodes back");
        }
    }
}
