package io.kegdb.sql.catalog;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A user table: one key column and one value column, stored in the keyspace that starts with the table's
 * 4-byte id. Ids are never reused, so data a crash left behind after DROP TABLE stays unreachable.
 */
public record TableDef(String schema, String name, int id, String keyColumn, ColumnType keyType, int keyLength,
                String valueColumn, ColumnType valueType, int valueLength) {

    private static final int FORMAT = 1;
    /** Length of {@link #prefix()}: the table id. */
    public static final int PREFIX_LENGTH = 4;

    /** First bytes of every key of this table. */
    public byte[] prefix() {
        return ByteBuffer.allocate(PREFIX_LENGTH).putInt(id).array();
    }

    /** The first key after this table's keyspace (ids are below Integer.MAX_VALUE). */
    public byte[] prefixEnd() {
        return ByteBuffer.allocate(PREFIX_LENGTH).putInt(id + 1).array();
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** Store key of a non-null internal key value (no separate prefix array: this runs once per row). */
    public byte[] key(Object value) {
        return keyType.encodeKey(id, value);
    }

    public Object decodeKey(byte[] key) {
        return keyType.decodeKey(key, PREFIX_LENGTH);
    }

    /** Checks and converts a key to be written: never null, within its declared length. */
    public Object checkedKey(Object value) throws SqlError {
        Object v = keyType.coerce(value, keyColumn);
        if (v == null) {
            throw new SqlError(SqlState.NULL_VALUE_NOT_ALLOWED, "the key column " + keyColumn + " of " + qualifiedName()
                    + " cannot be NULL");
        }
        keyType.checkLength(v, keyLength, keyColumn);
        return v;
    }

    public Object checkedValue(Object value) throws SqlError {
        Object v = valueType.coerce(value, valueColumn);
        valueType.checkLength(v, valueLength, valueColumn);
        return v;
    }

    byte[] serialize() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            out.writeInt(id);
            out.writeUTF(keyColumn);
            out.writeUTF(keyType.name());
            out.writeInt(keyLength);
            out.writeUTF(valueColumn);
            out.writeUTF(valueType.name());
            out.writeInt(valueLength);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TableDef deserialize(String schema, String name, byte[] data) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        int format = in.readUnsignedByte();
        if (format != FORMAT) {
            throw new IOException("catalog entry of " + schema + "." + name + " has unknown format " + format);
        }
        return new TableDef(schema, name, in.readInt(), in.readUTF(), ColumnType.valueOf(in.readUTF()),
                in.readInt(), in.readUTF(), ColumnType.valueOf(in.readUTF()), in.readInt());
    }
}
