package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyValue;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;

import java.util.Arrays;
import java.util.Comparator;

/**
 * {@code ORDER BY V [, K] LIMIT n [OFFSET m]} answered inside a scan: the scan keeps the first {@code m + n}
 * rows in that order in a bounded heap of stored pairs, compared as stored bytes
 * ({@link ColumnType#compareValues}), and decodes only the rows it returns. Ties on the value go by the key
 * (ascending unless the ORDER BY says otherwise), so the order is total and the scan's collation says so.
 *
 * @param value the value's place in the order: direction and where NULLs go
 * @param keyDescending the key's direction among equal values
 */
record TopN(RelFieldCollation value, boolean keyDescending, KeyOperand offset, KeyOperand fetch) {

    /** The order of the rows the scan produces: the value, then the key. */
    RelCollation collation() {
        return RelCollations.of(value.withFieldIndex(1), new RelFieldCollation(0, keyDescending
                ? RelFieldCollation.Direction.DESCENDING : RelFieldCollation.Direction.ASCENDING));
    }

    /** Whether NULL values come before the others. */
    private boolean nullsFirst() {
        RelFieldCollation.NullDirection d = value.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                ? value.direction.defaultNullDirection() : value.nullDirection;
        return d == RelFieldCollation.NullDirection.FIRST;
    }

    /** Pairs of {@code def} in this order, compared without decoding. */
    PairOrder order(TableDef def) {
        return new PairOrder(def.valueType(), value.direction.isDescending(), nullsFirst(), keyDescending);
    }

    /**
     * The top-N order over stored pairs: as a {@link Comparator} of kept pairs, and between a pair read in place
     * (a cursor's views) and a kept one, so a scan copies only the pairs it keeps.
     */
    static final class PairOrder implements Comparator<KeyValue> {
        private final ColumnType type;
        private final boolean valueDescending;
        private final boolean nullsFirst;
        private final boolean keyDescending;

        private PairOrder(ColumnType type, boolean valueDescending, boolean nullsFirst, boolean keyDescending) {
            this.type = type;
            this.valueDescending = valueDescending;
            this.nullsFirst = nullsFirst;
            this.keyDescending = keyDescending;
        }

        @Override
        public int compare(KeyValue a, KeyValue b) {
            return compare(a.key(), 0, a.key().length, a.value(), 0, a.value().length, b);
        }

        /** The order of the pair {@code a}, read in place, against the kept pair {@code b}. */
        int compare(StoredPair a, KeyValue b) {
            return compare(a.keyArray(), a.keyOffset(), a.keyLength(), a.valueArray(), a.valueOffset(),
                    a.valueLength(), b);
        }

        /** The order of the pair {@code (k[ko, ko + kl), v[vo, vo + vl))} against the kept pair {@code b}. */
        private int compare(byte[] k, int ko, int kl, byte[] v, int vo, int vl, KeyValue b) {
            boolean aNull = ColumnType.isNullValue(v, vo, vl);
            boolean bNull = ColumnType.isNullValue(b.value());
            int c;
            if (aNull || bNull) {
                c = aNull == bNull ? 0 : aNull == nullsFirst ? -1 : 1;
            } else {
                c = type.compareValues(v, vo, vl, b.value(), 0, b.value().length);
                c = valueDescending ? -c : c;
            }
            if (c != 0) {
                return c;
            }
            c = Arrays.compareUnsigned(k, ko, ko + kl, b.key(), 0, b.key().length);
            return keyDescending ? -c : c;
        }
    }

    @Override
    public String toString() {
        return value.direction.shortString + (nullsFirst() ? " nulls first" : " nulls last")
                + (keyDescending ? ", key DESC" : "") + (offset == null ? "" : " offset " + offset) + " fetch " + fetch;
    }
}
