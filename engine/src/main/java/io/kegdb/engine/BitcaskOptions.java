package io.kegdb.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Bitcask} store behaves. Immutable; made with {@link #builder()}.
 *
 * <pre>{@code
 * BitcaskOptions opts = BitcaskOptions.builder()
 *         .segmentSize(256L << 20)
 *         .durability(Durability.NO_SYNC)
 *         .mergeInterval(Duration.ofHours(6)).mergeMinFiles(5)
 *         .build();
 * }</pre>
 */
public final class BitcaskOptions {

    /** Largest allowed segment size: offsets inside a segment stay below 2 GiB. */
    public static final long MAX_SEGMENT_SIZE = 1L << 30;
    /** Largest allowed key size. */
    public static final int MAX_KEY_SIZE_LIMIT = 65535;
    /** Largest allowed value size. */
    public static final int MAX_VALUE_SIZE_LIMIT = 256 << 20;

    private final long segmentSize;
    private final Durability durability;
    private final int maxKeySize;
    private final int maxValueSize;
    private final Duration mergeInterval;
    private final int mergeMinFiles;
    private final double mergeGarbageRatio;
    private final boolean readOnly;
    private final boolean repair;
    private final int maxOpenFiles;

    private BitcaskOptions(Builder b) {
        this.segmentSize = b.segmentSize;
        this.durability = b.durability;
        this.maxKeySize = b.maxKeySize;
        this.maxValueSize = b.maxValueSize;
        this.mergeInterval = b.mergeInterval;
        this.mergeMinFiles = b.mergeMinFiles;
        this.mergeGarbageRatio = b.mergeGarbageRatio;
        this.readOnly = b.readOnly;
        this.repair = b.repair;
        this.maxOpenFiles = b.maxOpenFiles;
    }

    /** The defaults, see {@link Builder}. */
    public static BitcaskOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.segmentSize = segmentSize;
        b.durability = durability;
        b.maxKeySize = maxKeySize;
        b.maxValueSize = maxValueSize;
        b.mergeInterval = mergeInterval;
        b.mergeMinFiles = mergeMinFiles;
        b.mergeGarbageRatio = mergeGarbageRatio;
        b.readOnly = readOnly;
        b.repair = repair;
        b.maxOpenFiles = maxOpenFiles;
        return b;
    }

    /** A data segment is sealed and a new one started once it would grow past this many bytes. */
    public long segmentSize() {
        return segmentSize;
    }

    /** Durability of {@code put}/{@code delete} calls that do not name one. */
    public Durability durability() {
        return durability;
    }

    public int maxKeySize() {
        return maxKeySize;
    }

    public int maxValueSize() {
        return maxValueSize;
    }

    /** How often the background merge checks whether to run; {@link Duration#ZERO} disables it. */
    public Duration mergeInterval() {
        return mergeInterval;
    }

    /** A scheduled merge runs only with at least this many sealed segments... */
    public int mergeMinFiles() {
        return mergeMinFiles;
    }

    /** ...and at least this fraction of their bytes dead. */
    public double mergeGarbageRatio() {
        return mergeGarbageRatio;
    }

    /** Open without the write lock's exclusivity for writing: every write fails, several readers may share. */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Open a store whose sealed segments hold corrupt records by skipping them (logged) instead of failing.
     * Records after a corrupt one in the same segment are recovered where their framing allows.
     */
    public boolean repair() {
        return repair;
    }

    /** Upper bound on data files held open for reading at once (least recently used are closed). */
    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    @Override
    public String toString() {
        return "BitcaskOptions{segmentSize=" + segmentSize + ", durability=" + durability
                + ", maxKeySize=" + maxKeySize + ", maxValueSize=" + maxValueSize
                + ", mergeInterval=" + mergeInterval + ", mergeMinFiles=" + mergeMinFiles
                + ", mergeGarbageRatio=" + mergeGarbageRatio + ", readOnly=" + readOnly
                + ", repair=" + repair + ", maxOpenFiles=" + maxOpenFiles + '}';
    }

    /** Builds {@link BitcaskOptions}; every setter checks its argument and names the allowed range. */
    public static final class Builder {
        private long segmentSize = 256L << 20;
        private Durability durability = Durability.SYNC;
        private int maxKeySize = 16 << 10;
        private int maxValueSize = 64 << 20;
        private Duration mergeInterval = Duration.ofMinutes(10);
        private int mergeMinFiles = 4;
        private double mergeGarbageRatio = 0.5;
        private boolean readOnly;
        private boolean repair;
        private int maxOpenFiles = 256;

        private Builder() {
        }

        /** Default 256 MiB; between 4 KiB and {@link #MAX_SEGMENT_SIZE}. */
        public Builder segmentSize(long bytes) {
            if (bytes < 4096 || bytes > MAX_SEGMENT_SIZE) {
                throw new IllegalArgumentException("segmentSize " + bytes + " outside [4096, " + MAX_SEGMENT_SIZE + "]");
            }
            this.segmentSize = bytes;
            return this;
        }

        /** Default {@link Durability#SYNC}. */
        public Builder durability(Durability d) {
            this.durability = Objects.requireNonNull(d, "durability");
            return this;
        }

        /** Default 16 KiB; between 1 and {@link #MAX_KEY_SIZE_LIMIT}. */
        public Builder maxKeySize(int bytes) {
            if (bytes < 1 || bytes > MAX_KEY_SIZE_LIMIT) {
                throw new IllegalArgumentException("maxKeySize " + bytes + " outside [1, " + MAX_KEY_SIZE_LIMIT + "]");
            }
            this.maxKeySize = bytes;
            return this;
        }

        /** Default 64 MiB; between 0 and {@link #MAX_VALUE_SIZE_LIMIT}. */
        public Builder maxValueSize(int bytes) {
            if (bytes < 0 || bytes > MAX_VALUE_SIZE_LIMIT) {
                throw new IllegalArgumentException("maxValueSize " + bytes + " outside [0, " + MAX_VALUE_SIZE_LIMIT + "]");
            }
            this.maxValueSize = bytes;
            return this;
        }

        /** Default 10 minutes; {@link Duration#ZERO} turns scheduled merges off. */
        public Builder mergeInterval(Duration interval) {
            Objects.requireNonNull(interval, "mergeInterval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("mergeInterval " + interval + " is negative");
            }
            this.mergeInterval = interval;
            return this;
        }

        /** Default 4; at least 1. */
        public Builder mergeMinFiles(int files) {
            if (files < 1) {
                throw new IllegalArgumentException("mergeMinFiles " + files + " is below 1");
            }
            this.mergeMinFiles = files;
            return this;
        }

        /** Default 0.5; between 0 and 1. */
        public Builder mergeGarbageRatio(double ratio) {
            if (!(ratio >= 0 && ratio <= 1)) {
                throw new IllegalArgumentException("mergeGarbageRatio " + ratio + " outside [0, 1]");
            }
            this.mergeGarbageRatio = ratio;
            return this;
        }

        /** Default false. */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /** Default false. */
        public Builder repair(boolean repair) {
            this.repair = repair;
            return this;
        }

        /** Default 256; at least 4. */
        public Builder maxOpenFiles(int files) {
            if (files < 4) {
                throw new IllegalArgumentException("maxOpenFiles " + files + " is below 4");
            }
            this.maxOpenFiles = files;
            return this;
        }

        public BitcaskOptions build() {
            return new BitcaskOptions(this);
        }
    }
}
