package io.kegdb.raft.replication;

import com.alipay.remoting.exception.CodecException;
import com.alipay.remoting.serialization.SerializerManager;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KvWireSerializerTest {

    static {
        KvWireSerializer.install();
    }

    private final com.alipay.remoting.serialization.Serializer wire = SerializerManager.getSerializer(KvWireSerializer.INDEX);

    /** Every field, set one at a time to a value unlike its default, comes back: a field left out fails here. */
    @Test
    void everyFieldOfARequestAndAnAnswerRoundTrips() throws Exception {
        for (Class<?> type : List.of(KvRequest.class, KvResponse.class)) {
            for (Field f : wireFields(type)) {
                for (int variant = 0; variant < 3; variant++) {
                    Object sent = newInstance(type);
                    set(f, sent, variant);
                    Object back = wire.deserialize(wire.serialize(sent), type.getName());
                    for (Field g : wireFields(type)) {
                        assertSame(g, sent, back);
                    }
                }
            }
            Object all = newInstance(type);
            for (Field f : wireFields(type)) {
                set(f, all, 1);
            }
            Object back = wire.deserialize(wire.serialize(all), type.getName());
            for (Field g : wireFields(type)) {
                assertSame(g, all, back);
            }
        }
    }

    @Test
    void anEmptyArrayStaysEmptyAndNullStaysNull() throws Exception {
        KvRequest r = KvRequest.scan("g", new byte[0], null, 5, false, false);
        KvRequest back = wire.deserialize(wire.serialize(r), KvRequest.class.getName());
        assertArrayEquals(new byte[0], back.from);
        assertNull(back.to);
        KvResponse answer = KvResponse.ok();
        answer.value = new byte[0];
        assertArrayEquals(new byte[0], ((KvResponse) wire.deserialize(wire.serialize(answer), KvResponse.class.getName())).value);
    }

    @Test
    void aGetIsAFewBytesAroundItsKey() throws Exception {
        byte[] key = new byte[16];
        byte[] compact = wire.serialize(KvRequest.get("kegdb", key, false));
        byte[] hessian = SerializerManager.getSerializer(SerializerManager.Hessian2).serialize(KvRequest.get("kegdb", key, false));
        assertTrue(compact.length <= key.length + 16, compact.length + " bytes");
        assertTrue(compact.length * 5 < hessian.length, compact.length + " vs Hessian's " + hessian.length + " bytes");
    }

    /** A newer client may send a field this node does not know: it is passed over, the rest is read. */
    @Test
    void anUnknownFieldIsSkipped() throws Exception {
        byte[] known = KvWireSerializer.encode(KvRequest.get("g", new byte[]{7}, true));
        for (byte[] extra : List.of(new byte[]{(byte) (60 << 2 | TaggedFields.VARINT), (byte) 0x96, 0x01},
                new byte[]{(byte) (61 << 2 | TaggedFields.BYTES), 2, 9, 9},
                new byte[]{(byte) (62 << 2 | TaggedFields.FIXED64), 1, 2, 3, 4, 5, 6, 7, 8},
                new byte[]{(byte) (63 << 2 | TaggedFields.LONGS), 2, 3, (byte) 0x80, 0x01})) {
            byte[] withExtra = new byte[known.length + extra.length];
            System.arraycopy(known, 0, withExtra, 0, 2);
            System.arraycopy(extra, 0, withExtra, 2, extra.length);
            System.arraycopy(known, 2, withExtra, 2 + extra.length, known.length - 2);
            KvRequest back = KvWireSerializer.decodeRequest(withExtra);
            assertArrayEquals(new byte[]{7}, back.key);
            assertEquals("g", back.group);
            assertTrue(back.local);
        }
    }

    @Test
    void bytesOfAnotherFormOrCutShortAreACodecError() {
        byte[] good = KvWireSerializer.encode(KvRequest.get("g", new byte[]{1, 2, 3}, false));
        byte[] hessian;
        try {
            hessian = SerializerManager.getSerializer(SerializerManager.Hessian2).serialize(KvRequest.get("g", new byte[]{1}, false));
        } catch (CodecException e) {
            throw new AssertionError(e);
        }
        for (byte[] bad : List.of(hessian, Arrays.copyOf(good, good.length - 3), new byte[0])) {
            CodecException e = assertThrows(CodecException.class, () -> wire.deserialize(bad, KvRequest.class.getName()));
            assertTrue(e.getMessage().contains("KvRequest"), e.getMessage());
        }
    }

    /** What else a node answers to a request in this form (a refusal, an exception) goes as Hessian. */
    @Test
    void otherObjectsTravelAsHessian() throws Exception {
        IllegalStateException error = new IllegalStateException("refused");
        byte[] bytes = wire.serialize(error);
        Object back = wire.deserialize(bytes, IllegalStateException.class.getName());
        assertEquals("refused", ((IllegalStateException) back).getMessage());
        assertArrayEquals(SerializerManager.getSerializer(SerializerManager.Hessian2).serialize(error), bytes);
    }

    private static List<Field> wireFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                f.setAccessible(true);
                fields.add(f);
            }
        }
        return fields;
    }

    private static Object newInstance(Class<?> type) throws Exception {
        var c = type.getDeclaredConstructor();
        c.setAccessible(true);
        return c.newInstance();
    }

    /** Variant 0: the smallest non-default value; 1: a typical one; 2: an extreme one. */
    private static void set(Field f, Object target, int variant) throws IllegalAccessException {
        Class<?> t = f.getType();
        if (t == byte.class) {
            f.setByte(target, new byte[]{1, 12, Byte.MIN_VALUE}[variant]);
        } else if (t == int.class) {
            f.setInt(target, new int[]{1, 4096, Integer.MIN_VALUE}[variant]);
        } else if (t == long.class) {
            f.setLong(target, new long[]{-1, 0x1234_5678_9ABCL, Long.MIN_VALUE}[variant]);
        } else if (t == boolean.class) {
            f.setBoolean(target, true);
        } else if (t == String.class) {
            f.set(target, new String[]{"", f.getName() + " ünïcode ☃", "x".repeat(300)}[variant]);
        } else if (t == byte[].class) {
            f.set(target, new byte[][]{new byte[0], f.getName().getBytes(), new byte[70_000]}[variant]);
        } else if (t == long[].class) {
            f.set(target, new long[][]{new long[0], {1, -2, 3}, {Long.MAX_VALUE, Long.MIN_VALUE}}[variant]);
        } else {
            throw new AssertionError("the test does not know how to fill " + f + ": teach it, and the wire form");
        }
    }

    private static void assertSame(Field f, Object sent, Object back) throws IllegalAccessException {
        Object a = f.get(sent), b = f.get(back);
        if (a instanceof byte[] x) {
            assertArrayEquals(x, (byte[]) b, f.getName());
        } else if (a instanceof long[] x) {
            assertArrayEquals(x, (long[]) b, f.getName());
        } else {
            assertEquals(a, b, f.getName());
        }
    }
}
