package io.kegdb.engine.meter;

/** The base unit of a meter's value; names end with it ({@code ..._bytes}, {@code ..._seconds}) unless NONE. */
public enum MeterUnit {
    /** A plain count or number. */
    NONE(""),
    BYTES("bytes"),
    SECONDS("seconds");

    private final String suffix;

    MeterUnit(String suffix) {
        this.suffix = suffix;
    }

    /** The word meter names of this unit end with; empty for NONE. */
    public String suffix() {
        return suffix;
    }
}
