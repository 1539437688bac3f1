package io.kegdb.sql.calcite;

import io.kegdb.engine.KvCursor;
import io.kegdb.sql.catalog.ColumnType;

/**
 * The stored pair a scan source stands on, read in place: views into its cursor's arrays (valid until the
 * cursor's next step, never changed), or a point's or key scan's own arrays. A source copies a key or value
 * ({@link #key}, {@link #value}) only to keep or decode it, through the cursor's copy, once per pair.
 */
final class StoredPair {

    /** The cursor the views belong to; null when the arrays are the pair's own. */
    private KvCursor cursor;
    private byte[] keyArray;
    private int keyOffset;
    private int keyLength;
    private byte[] valueArray;
    private int valueOffset;
    private int valueLength;
    /** Copies made for this pair on request; null until then. */
    private byte[] keyCopy;
    private byte[] valueCopy;

    /** Stands on the pair {@code c} just stepped to. */
    void viewOf(KvCursor c) {
        cursor = c;
        keyArray = c.keyArray();
        keyOffset = c.keyOffset();
        keyLength = c.keyLength();
        valueArray = c.valueArray();
        valueOffset = c.valueOffset();
        valueLength = c.valueLength();
        keyCopy = null;
        valueCopy = null;
    }

    /** Stands on {@code key} and {@code value} (null: a key alone, no value read), whole arrays of its own. */
    void own(byte[] key, byte[] value) {
        cursor = null;
        keyArray = key;
        keyOffset = 0;
        keyLength = key.length;
        valueArray = value;
        valueOffset = 0;
        valueLength = value == null ? 0 : value.length;
        keyCopy = key;
        valueCopy = value;
    }

    /** The stored key, a copy the caller may keep. */
    byte[] key() {
        if (keyCopy == null) {
            keyCopy = cursor.key();
        }
        return keyCopy;
    }

    /** The stored value, a copy the caller may keep; null when no value was read. */
    byte[] value() {
        if (valueCopy == null && valueArray != null) {
            valueCopy = cursor.value();
        }
        return valueCopy;
    }

    /** Whether a value was read (false for a key alone). */
    boolean hasValue() {
        return valueArray != null;
    }

    /** Whether the stored value is NULL, read in place (a value must have been read). */
    boolean valueIsNull() {
        return ColumnType.isNullValue(valueArray, valueOffset, valueLength);
    }

    /** Whether the stored value passes {@code wanted} (null: no tests), read in place. */
    boolean passes(ValueFilter.Resolved wanted) {
        return wanted == null || wanted.test(valueArray, valueOffset, valueLength);
    }

    byte[] keyArray() {
        return keyArray;
    }

    int keyOffset() {
        return keyOffset;
    }

    int keyLength() {
        return keyLength;
    }

    byte[] valueArray() {
        return valueArray;
    }

    int valueOffset() {
        return valueOffset;
    }

    int valueLength() {
        return valueLength;
    }
}
