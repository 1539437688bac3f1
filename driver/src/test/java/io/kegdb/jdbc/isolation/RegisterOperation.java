package io.kegdb.jdbc.isolation;

/**
 * One operation on a register as a client saw it: invoked at {@code invoked}, answered at {@code answered}
 * (nanoTime). A write whose outcome is unknown (the connection failed before the answer) has
 * {@code answered == Long.MAX_VALUE}: it may have taken effect at any time after its invocation, or never.
 */
public record RegisterOperation(Kind kind, long read, long written, long invoked, long answered) {

    public enum Kind {
        /** Returned {@code read}. */
        READ,
        /** Set the register to {@code written}. */
        WRITE,
        /** Read {@code read} and, atomically with it, set {@code written} (a read-modify-write transaction). */
        READ_WRITE
    }

    public static final long UNKNOWN = Long.MAX_VALUE;

    public static RegisterOperation read(long value, long invoked, long answered) {
        return new RegisterOperation(Kind.READ, value, 0, invoked, answered);
    }

    public static RegisterOperation write(long value, long invoked, long answered) {
        return new RegisterOperation(Kind.WRITE, 0, value, invoked, answered);
    }

    public static RegisterOperation readWrite(long read, long written, long invoked, long answered) {
        return new RegisterOperation(Kind.READ_WRITE, read, written, invoked, answered);
    }

    public boolean completed() {
        return answered != UNKNOWN;
    }

    /** Whether this operation, applied to a register holding {@code state}, answers what it answered. */
    boolean allowedOn(long state) {
        return kind == Kind.WRITE || read == state;
    }

    long after(long state) {
        return kind == Kind.READ ? state : written;
    }

    @Override
    public String toString() {
        String what = switch (kind) {
            case READ -> "read " + read;
            case WRITE -> "write " + written;
            case READ_WRITE -> "read " + read + " write " + written;
        };
        return what + " [" + invoked + ", " + (completed() ? answered : "?") + "]";
    }
}
