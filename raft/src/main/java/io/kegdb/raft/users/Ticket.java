package io.kegdb.raft.users;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * What a login returns and every later request carries: format byte {@value #FORMAT}, the user's name, the
 * stamp of the user's credentials at login, the expiry (ms since the epoch, by the issuing node's clock) and
 * an HMAC-SHA256 of all that under the cluster's secret (in the users' span, which only nodes read). Any node
 * checks one with one HMAC, and then looks the user up in its own applied state: a ticket of a dropped user or
 * of a password since changed names a stamp no record has.
 *
 * @param user    the user's name
 * @param stamp   the user's credential stamp when the ticket was issued
 * @param expires when it stops being valid, ms since the epoch
 */
record Ticket(String user, long stamp, long expires) {

    static final byte FORMAT = 1;
    private static final int MAC_BYTES = 32;
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256", e);
        }
    });

    byte[] encode(byte[] secret) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            out.writeUTF(user);
            out.writeLong(stamp);
            out.writeLong(expires);
            out.flush();
            byte[] body = bytes.toByteArray();
            byte[] ticket = Arrays.copyOf(body, body.length + MAC_BYTES);
            System.arraycopy(mac(secret, body, body.length), 0, ticket, body.length, MAC_BYTES);
            return ticket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ticket {@code bytes} hold if their MAC is right under {@code secret}, else null (expiry not checked). */
    static Ticket verify(byte[] secret, byte[] bytes) {
        if (bytes == null || bytes.length <= MAC_BYTES + 1 || bytes[0] != FORMAT) {
            return null;
        }
        int bodyLength = bytes.length - MAC_BYTES;
        byte[] expected = mac(secret, bytes, bodyLength);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, bodyLength, bytes.length))) {
            return null;
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 1, bodyLength - 1));
            return new Ticket(in.readUTF(), in.readLong(), in.readLong());
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] mac(byte[] secret, byte[] data, int length) {
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot key HmacSHA256", e);
        }
        mac.update(data, 0, length);
        return mac.doFinal();
    }
}
