package io.kegdb.raft.replication;

import io.kegdb.raft.range.RangeDescriptor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A range's record of a range split off it ({@link io.kegdb.raft.range.MetaKeys#splitKey}): the new range's
 * group and its descriptor as the split made it. Stored form: the group (2-byte length and UTF-8 bytes), then
 * the descriptor's stored form.
 */
record SplitRecord(String group, RangeDescriptor range) {

    static byte[] encode(String group, RangeDescriptor range) {
        byte[] g = group.getBytes(StandardCharsets.UTF_8);
        byte[] d = range.encode();
        return ByteBuffer.allocate(2 + g.length + d.length).putShort((short) g.length).put(g).put(d).array();
    }

    static SplitRecord decode(byte[] value) {
        if (value.length < 2) {
            throw new IllegalArgumentException("a split record of " + value.length + " bytes");
        }
        int length = ByteBuffer.wrap(value).getShort() & 0xffff;
        if (2 + length > value.length) {
            throw new IllegalArgumentException("a split record of " + value.length + " bytes names a group of " + length);
        }
        String group = new String(value, 2, length, StandardCharsets.UTF_8);
        return new SplitRecord(group, RangeDescriptor.decode(Arrays.copyOfRange(value, 2 + length, value.length)));
    }
}
