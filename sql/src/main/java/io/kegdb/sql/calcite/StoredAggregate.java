package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * One aggregate call a {@link KvAggregate} computes over stored pairs, and its per-group state. Values are read
 * from their stored bytes: counts look at the presence byte alone, COUNT(DISTINCT) and MIN/MAX keep the bytes of
 * the values they saw and decode only the result, SUM adds the number read from the bytes without boxing it. The
 * results are those of Calcite's operators with KegDB's sums ({@link ExactSums}): a BIGINT's sum exact, a
 * DOUBLE's compensated, added in key order as the scan reads them.
 *
 * @param kind what is computed
 * @param column 0 for the key, 1 for the value (ignored by {@link Kind#ROWS})
 */
record StoredAggregate(Kind kind, int column) {

    enum Kind {
        /** COUNT(*), and COUNT(K) or COUNT(DISTINCT K): keys are never NULL and unique. */
        ROWS,
        /** COUNT(V): the rows whose value is not NULL. */
        COUNT,
        COUNT_DISTINCT,
        SUM,
        MIN,
        MAX
    }

    /** Whether SUM (and so AVG) of a column of {@code type} is computed here. */
    static boolean summable(ColumnType type) {
        return type == ColumnType.INTEGER || type == ColumnType.BIGINT || type == ColumnType.DOUBLE
                || type == ColumnType.DECIMAL;
    }

    /** Whether MIN and MAX of a value column of {@code type} are computed here (keys: any type). */
    static boolean comparable(ColumnType type) {
        return type != ColumnType.VARBINARY;
    }

    /** Whether the call reads the value of each row. */
    boolean readsValue() {
        return kind != Kind.ROWS && column == 1;
    }

    /** A fresh state of this call over groups numbered from 0, for one execution over {@code def}. */
    State state(TableDef def) {
        return switch (kind) {
            case ROWS -> new Count(false);
            case COUNT -> new Count(true);
            case COUNT_DISTINCT -> new Distinct(def.valueType());
            case SUM -> column == 0 ? new KeySum(def) : Sum.of(def.valueType(), def.valueScale());
            case MIN, MAX -> column == 0 ? new KeyExtreme(def, kind == Kind.MAX)
                    : new ValueExtreme(def, kind == Kind.MAX);
        };
    }

    @Override
    public String toString() {
        String arg = kind == Kind.ROWS ? "*" : column == 0 ? "K" : "V";
        return switch (kind) {
            case ROWS, COUNT -> "COUNT(" + arg + ")";
            case COUNT_DISTINCT -> "COUNT(DISTINCT " + arg + ")";
            default -> kind + "(" + arg + ")";
        };
    }

    /**
     * A call's state for every group: {@link #add} folds in a row of a group (the walk's current pair, read in
     * place; its value is absent when no call reads it), {@link #result} is the group's value in Calcite's
     * internal form. A state copies a key or value only to keep it.
     */
    abstract static class State {
        /** Groups the arrays hold. */
        int capacity = 1;

        abstract void add(int group, StoredPair row);

        abstract Object result(int group);

        /** Makes the group empty again (a GROUP BY K reuses group 0 for each row). */
        abstract void reset(int group);

        /** Makes room for groups up to {@code group}. */
        final void ensure(int group) {
            if (group >= capacity) {
                int n = Math.max(group + 1, capacity * 2);
                grow(n);
                capacity = n;
            }
        }

        abstract void grow(int capacity);
    }

    /** COUNT(*) (every row) and COUNT(V) (the rows whose stored value is not NULL). */
    private static final class Count extends State {
        private final boolean skipsNulls;
        private long[] counts = new long[1];

        Count(boolean skipsNulls) {
            this.skipsNulls = skipsNulls;
        }

        @Override
        void add(int group, StoredPair row) {
            ensure(group);
            if (!skipsNulls || !row.valueIsNull()) {
                counts[group]++;
            }
        }

        @Override
        Object result(int group) {
            return group < capacity ? counts[group] : 0L;
        }

        @Override
        void reset(int group) {
            counts[group] = 0;
        }

        @Override
        void grow(int n) {
            counts = Arrays.copyOf(counts, n);
        }
    }

    /** COUNT(DISTINCT V): the distinct non-NULL stored values of each group, canonical as the groups' are. */
    private static final class Distinct extends State {
        private final ColumnType type;
        private StoredValueTable[] sets = new StoredValueTable[1];

        Distinct(ColumnType type) {
            this.type = type;
        }

        @Override
        void add(int group, StoredPair row) {
            ensure(group);
            if (row.valueIsNull()) {
                return;
            }
            if (sets[group] == null) {
                sets[group] = new StoredValueTable();
            }
            sets[group].idOf(KvAggregateSource.canonical(type, row.value()));
        }

        @Override
        Object result(int group) {
            return group < capacity && sets[group] != null ? (long) sets[group].size() : 0L;
        }

        @Override
        void reset(int group) {
            sets[group] = null;
        }

        @Override
        void grow(int n) {
            sets = Arrays.copyOf(sets, n);
        }
    }

    /** SUM(V) of a numeric value read from its bytes; NULL for a group without a non-NULL value. */
    private abstract static class Sum extends State {
        boolean[] seen = new boolean[1];

        static Sum of(ColumnType type, int scale) {
            return switch (type) {
                case INTEGER -> new IntegerSum();
                case BIGINT -> new BigintSum();
                case DOUBLE -> new DoubleSum();
                case DECIMAL -> new DecimalSum(scale);
                default -> throw new IllegalStateException("no SUM of " + type);
            };
        }

        @Override
        final void add(int group, StoredPair row) {
            ensure(group);
            if (!row.valueIsNull()) {
                seen[group] = true;
                addStored(group, row);
            }
        }

        /** Adds the row's non-NULL stored value. */
        abstract void addStored(int group, StoredPair row);

        /** Adds a decoded (key) value of the sum's type. */
        abstract void addDecoded(int group, Object value);

        @Override
        final Object result(int group) {
            return group < capacity && seen[group] ? sum(group) : null;
        }

        abstract Object sum(int group);

        @Override
        void reset(int group) {
            seen[group] = false;
        }

        @Override
        void grow(int n) {
            seen = Arrays.copyOf(seen, n);
        }
    }

    /** INTEGER into a BIGINT: a long, as Calcite adds (2<sup>32</sup> rows could not wrap it). */
    private static final class IntegerSum extends Sum {
        private long[] sums = new long[1];

        @Override
        void addStored(int group, StoredPair row) {
            sums[group] += ColumnType.INTEGER.storedLong(row.valueArray(), row.valueOffset());
        }

        @Override
        void addDecoded(int group, Object value) {
            sums[group] += (Integer) value;
        }

        @Override
        Object sum(int group) {
            return sums[group];
        }

        @Override
        void reset(int group) {
            super.reset(group);
            sums[group] = 0;
        }

        @Override
        void grow(int n) {
            super.grow(n);
            sums = Arrays.copyOf(sums, n);
        }
    }

    /** BIGINT into a DECIMAL: a long and a count of its wraps, exact ({@link ExactSums#exactSum}). */
    private static final class BigintSum extends Sum {
        private final Exact exact = new Exact();

        @Override
        void addStored(int group, StoredPair row) {
            exact.add(group, ColumnType.BIGINT.storedLong(row.valueArray(), row.valueOffset()));
        }

        @Override
        void addDecoded(int group, Object value) {
            exact.add(group, (Long) value);
        }

        @Override
        Object sum(int group) {
            return exact.total(group, 0);
        }

        @Override
        void reset(int group) {
            super.reset(group);
            exact.reset(group);
        }

        @Override
        void grow(int n) {
            super.grow(n);
            exact.grow(n);
        }
    }

    /** DOUBLE: Neumaier's compensated sum ({@link ExactSums#compensation}). */
    private static final class DoubleSum extends Sum {
        private double[] sums = new double[1];
        private double[] errors = new double[1];

        @Override
        void addStored(int group, StoredPair row) {
            add(group, ColumnType.storedDouble(row.valueArray(), row.valueOffset()));
        }

        @Override
        void addDecoded(int group, Object value) {
            add(group, (Double) value);
        }

        private void add(int group, double v) {
            errors[group] = ExactSums.compensation(errors[group], sums[group], v);
            sums[group] += v;
        }

        @Override
        Object sum(int group) {
            return ExactSums.compensatedSum(sums[group], errors[group]);
        }

        @Override
        void reset(int group) {
            super.reset(group);
            sums[group] = 0;
            errors[group] = 0;
        }

        @Override
        void grow(int n) {
            super.grow(n);
            sums = Arrays.copyOf(sums, n);
            errors = Arrays.copyOf(errors, n);
        }
    }

    /** DECIMAL(p, s) into a DECIMAL(38, s): the unscaled numbers added exactly, a BigDecimal made once. */
    private static final class DecimalSum extends Sum {
        private final int scale;
        private final Exact exact = new Exact();

        DecimalSum(int scale) {
            this.scale = scale;
        }

        @Override
        void addStored(int group, StoredPair row) {
            byte[] value = row.value();
            if (ColumnType.unscaledFitsLong(value)) {
                exact.add(group, ColumnType.storedUnscaled(value));
            } else {
                exact.add(group, ColumnType.storedUnscaledBig(value));
            }
        }

        @Override
        void addDecoded(int group, Object value) {
            BigInteger unscaled = ((BigDecimal) value).unscaledValue();
            if (unscaled.bitLength() < Long.SIZE) {
                exact.add(group, unscaled.longValue());
            } else {
                exact.add(group, unscaled);
            }
        }

        @Override
        Object sum(int group) {
            return exact.total(group, scale);
        }

        @Override
        void reset(int group) {
            super.reset(group);
            exact.reset(group);
        }

        @Override
        void grow(int n) {
            super.grow(n);
            exact.grow(n);
        }
    }

    /** SUM(K): the key decoded (keys are never NULL) and added as a value of its type is. */
    private static final class KeySum extends State {
        private final TableDef def;
        private final Sum sum;

        KeySum(TableDef def) {
            this.def = def;
            this.sum = Sum.of(def.keyType(), def.keyScale());
        }

        @Override
        void add(int group, StoredPair row) {
            sum.ensure(group);
            sum.seen[group] = true;
            sum.addDecoded(group, def.decodeKey(row.key()));
        }

        @Override
        Object result(int group) {
            return sum.result(group);
        }

        @Override
        void reset(int group) {
            sum.reset(group);
        }

        @Override
        void grow(int n) {
            sum.ensure(n - 1);
        }
    }

    /** An exact integer sum per group: a wrapping long, its wrap count, and numbers too wide for a long. */
    private static final class Exact {
        private long[] sums = new long[1];
        private long[] wraps = new long[1];
        private BigInteger[] wide = new BigInteger[1];

        void add(int group, long v) {
            wraps[group] = ExactSums.wraps(wraps[group], sums[group], v);
            sums[group] += v;
        }

        void add(int group, BigInteger v) {
            wide[group] = wide[group] == null ? v : wide[group].add(v);
        }

        BigDecimal total(int group, int scale) {
            BigDecimal longs = ExactSums.exactSum(sums[group], wraps[group]);
            BigInteger unscaled = longs.unscaledValue();
            if (wide[group] != null) {
                unscaled = unscaled.add(wide[group]);
            }
            return new BigDecimal(unscaled, scale);
        }

        void reset(int group) {
            sums[group] = 0;
            wraps[group] = 0;
            wide[group] = null;
        }

        void grow(int n) {
            sums = Arrays.copyOf(sums, n);
            wraps = Arrays.copyOf(wraps, n);
            wide = Arrays.copyOf(wide, n);
        }
    }

    /** MIN(K) or MAX(K): the first or last stored key of the group (keys sort as their values). */
    private static final class KeyExtreme extends State {
        private final TableDef def;
        private final boolean max;
        private byte[][] best = new byte[1][];

        KeyExtreme(TableDef def, boolean max) {
            this.def = def;
            this.max = max;
        }

        @Override
        void add(int group, StoredPair row) {
            ensure(group);
            byte[] b = best[group];
            if (b == null) {
                best[group] = row.key();
                return;
            }
            int c = Arrays.compareUnsigned(row.keyArray(), row.keyOffset(), row.keyOffset() + row.keyLength(),
                    b, 0, b.length);
            if (max ? c > 0 : c < 0) {
                best[group] = row.key();
            }
        }

        @Override
        Object result(int group) {
            return group < capacity && best[group] != null ? def.decodeKey(best[group]) : null;
        }

        @Override
        void reset(int group) {
            best[group] = null;
        }

        @Override
        void grow(int n) {
            best = Arrays.copyOf(best, n);
        }
    }

    /**
     * MIN(V) or MAX(V): the smallest or largest non-NULL stored value of the group, compared as stored bytes where
     * they order as the values ({@link ColumnType#compareValues}), else by the number read from them; the first
     * of equal values is kept (0.0 and -0.0 are equal). Decoded once, as the result.
     */
    private static final class ValueExtreme extends State {
        private final TableDef def;
        private final ColumnType type;
        private final boolean max;
        private byte[][] best = new byte[1][];

        ValueExtreme(TableDef def, boolean max) {
            this.def = def;
            this.type = def.valueType();
            this.max = max;
        }

        @Override
        void add(int group, StoredPair row) {
            ensure(group);
            if (row.valueIsNull()) {
                return;
            }
            byte[] b = best[group];
            if (b == null) {
                best[group] = row.value();
                return;
            }
            int c = compare(row.valueArray(), row.valueOffset(), row.valueLength(), b);
            if (max ? c > 0 : c < 0) {
                best[group] = row.value();
            }
        }

        /**
         * Compares the row's stored value {@code a[offset, offset + length)}, read in place, with the kept one:
         * only a new best is copied. DOUBLE as numbers (0.0 equals -0.0), DECIMAL by unscaled number (one
         * column's values share its scale), BOOLEAN by its byte (FALSE 0, TRUE 1).
         */
        private int compare(byte[] a, int offset, int length, byte[] b) {
            if (type.valuesCompareStored()) {
                return type.compareValues(a, offset, length, b, 0, b.length);
            }
            return switch (type) {
                case DOUBLE -> {
                    double x = ColumnType.storedDouble(a, offset);
                    double y = ColumnType.storedDouble(b);
                    yield x < y ? -1 : x > y ? 1 : x == y ? 0 : Double.compare(x, y);
                }
                case DECIMAL -> ColumnType.unscaledFitsLong(length) && ColumnType.unscaledFitsLong(b)
                        ? Long.compare(ColumnType.storedUnscaled(a, offset, length), ColumnType.storedUnscaled(b))
                        : ColumnType.storedUnscaledBig(a, offset, length).compareTo(ColumnType.storedUnscaledBig(b));
                case BOOLEAN -> Integer.compare(a[offset + 1], b[1]);
                default -> throw new IllegalStateException("no MIN/MAX of " + type);
            };
        }

        @Override
        Object result(int group) {
            return group < capacity && best[group] != null ? def.decodeValue(best[group]) : null;
        }

        @Override
        void reset(int group) {
            best[group] = null;
        }

        @Override
        void grow(int n) {
            best = Arrays.copyOf(best, n);
        }
    }
}
