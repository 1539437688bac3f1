package io.kegdb.raft.replication;

import com.alipay.remoting.InvokeContext;
import com.alipay.remoting.exception.CodecException;
import com.alipay.remoting.serialization.Serializer;
import com.alipay.remoting.serialization.SerializerManager;

/**
 * Puts {@link KvRequest}s and {@link KvResponse}s on the wire as {@link TaggedFields}, instead of the RPC
 * layer's default Hessian serialization, which writes every field's name into every message and sets the
 * fields by reflection. As the requests grew fields (sessions, users, the watched key) that became the
 * largest added cost of a linearizable get: the process CPU per get that {@code ClusterBench} prints
 * (docs/BENCHMARKS.md) rose by about a fifth with them, and came back below its earlier figure with this form.
 *
 * <p>A client asks for it per call ({@link #CONTEXT_KEY} in the call's invoke context), and SOFABolt
 * answers a request in the serializer it came in. So a node serves clients from before this form (Hessian
 * both ways), while a client using it needs nodes that know it: upgrade nodes first. Every field of the
 * two classes must be written here; {@code KvWireSerializerTest} fails on one that is not.
 */
public final class KvWireSerializer implements Serializer {

    /** SOFABolt's serializer number for this form (Hessian is 1); the same on every node and client. */
    static final byte INDEX = 20;
    /** The invoke-context key with which a call asks for serializer {@link #INDEX}. */
    static final String CONTEXT_KEY = InvokeContext.BOLT_CUSTOM_SERIALIZER;

    private static final int REQUEST = 0xA1;
    private static final int RESPONSE = 0xA2;
    private static final int FORMAT = 1;

    static {
        SerializerManager.addSerializer(INDEX, new KvWireSerializer());
    }

    private KvWireSerializer() {
    }

    /** Registers the form with SOFABolt in this JVM (idempotent); called before any node or client starts. */
    public static void install() {
        // the static initializer does it, once
    }

    @Override
    public byte[] serialize(Object obj) throws CodecException {
        if (obj instanceof KvRequest r) {
            return encode(r);
        }
        if (obj instanceof KvResponse r) {
            return encode(r);
        }
        // Anything else answered to such a request (a refusal of the node's TLS guard, an exception the RPC
        // layer reports) goes as it would have without this form.
        return hessian().serialize(obj);
    }

    private static Serializer hessian() {
        return SerializerManager.getSerializer(SerializerManager.Hessian2);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T deserialize(byte[] data, String className) throws CodecException {
        try {
            if (KvRequest.class.getName().equals(className)) {
                return (T) decodeRequest(data);
            }
            if (KvResponse.class.getName().equals(className)) {
                return (T) decodeResponse(data);
            }
        } catch (RuntimeException e) {
            throw new CodecException("a " + className + " in the KegDB wire form does not decode: " + e.getMessage(), e);
        }
        return hessian().deserialize(data, className);
    }

    static byte[] encode(KvRequest r) {
        return new TaggedFields.Writer(REQUEST, FORMAT)
                .varint(1, r.version).string(2, r.group).varint(3, r.op)
                .fixed64(4, r.sessionHigh).fixed64(5, r.sessionLow).varint(6, r.serial).varint(7, r.floor)
                .bytes(8, r.batch).bytes(9, r.key).bytes(10, r.from).bytes(11, r.to)
                .varint(12, r.limit).flag(13, r.descending).flag(14, r.local).varint(15, r.snapshot)
                .bytes(16, r.ticket).string(17, r.user).string(18, r.password).bytes(19, r.command)
                .bytes(20, r.watch).varint(21, r.rangeId).varint(22, r.generation).bytes(23, r.keys)
                .end();
    }

    static KvRequest decodeRequest(byte[] data) {
        KvRequest r = new KvRequest();
        TaggedFields.Reader in = new TaggedFields.Reader(data, REQUEST, FORMAT);
        for (int field = in.next(); field != 0; field = in.next()) {
            switch (field) {
                case 1 -> r.version = (byte) in.varint();
                case 2 -> r.group = in.string();
                case 3 -> r.op = (byte) in.varint();
                case 4 -> r.sessionHigh = in.fixed64();
                case 5 -> r.sessionLow = in.fixed64();
                case 6 -> r.serial = in.varint();
                case 7 -> r.floor = in.varint();
                case 8 -> r.batch = in.bytes();
                case 9 -> r.key = in.bytes();
                case 10 -> r.from = in.bytes();
                case 11 -> r.to = in.bytes();
                case 12 -> r.limit = (int) in.varint();
                case 13 -> r.descending = in.flag();
                case 14 -> r.local = in.flag();
                case 15 -> r.snapshot = in.varint();
                case 16 -> r.ticket = in.bytes();
                case 17 -> r.user = in.string();
                case 18 -> r.password = in.string();
                case 19 -> r.command = in.bytes();
                case 20 -> r.watch = in.bytes();
                case 21 -> r.rangeId = in.varint();
                case 22 -> r.generation = in.varint();
                case 23 -> r.keys = in.bytes();
                default -> in.skip();
            }
        }
        return r;
    }

    static byte[] encode(KvResponse r) {
        return new TaggedFields.Writer(RESPONSE, FORMAT)
                .varint(1, r.status).string(2, r.message).string(3, r.leader).bytes(4, r.value)
                .flag(5, r.watchedRead).bytes(6, r.watched).flag(7, r.existed).varint(8, r.snapshot)
                .bytes(9, r.page).longs(10, r.stats).string(11, r.node).string(12, r.role).string(13, r.peers)
                .string(14, r.sqlState).bytes(15, r.descriptor)
                .end();
    }

    static KvResponse decodeResponse(byte[] data) {
        KvResponse r = new KvResponse();
        TaggedFields.Reader in = new TaggedFields.Reader(data, RESPONSE, FORMAT);
        for (int field = in.next(); field != 0; field = in.next()) {
            switch (field) {
                case 1 -> r.status = (byte) in.varint();
                case 2 -> r.message = in.string();
                case 3 -> r.leader = in.string();
                case 4 -> r.value = in.bytes();
                case 5 -> r.watchedRead = in.flag();
                case 6 -> r.watched = in.bytes();
                case 7 -> r.existed = in.flag();
                case 8 -> r.snapshot = in.varint();
                case 9 -> r.page = in.bytes();
                case 10 -> r.stats = in.longs();
                case 11 -> r.node = in.string();
                case 12 -> r.role = in.string();
                case 13 -> r.peers = in.string();
                case 14 -> r.sqlState = in.string();
                case 15 -> r.descriptor = in.bytes();
                default -> in.skip();
            }
        }
        return r;
    }
}
