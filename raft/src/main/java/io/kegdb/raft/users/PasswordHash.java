package io.kegdb.raft.users;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * Passwords are kept as PBKDF2-HMAC-SHA256 (the JDK's {@code PBKDF2WithHmacSHA256}) of a random 16-byte salt
 * per password, with the iteration count stored beside the hash so that new passwords can take more while old
 * ones still verify.
 */
final class PasswordHash {

    /** The iteration count new passwords get (OWASP's figure for PBKDF2-HMAC-SHA256, 2021). */
    static final int ITERATIONS = 310_000;
    static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHash() {
    }

    static byte[] newSalt() {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return salt;
    }

    static byte[] hash(String password, byte[] salt, int iterations) {
        char[] chars = password.toCharArray();
        PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
            java.util.Arrays.fill(chars, '\0');
        }
    }

    /** Whether {@code password} is the one {@code record} was made with (compared in constant time). */
    static boolean matches(String password, UserRecord record) {
        return MessageDigest.isEqual(hash(password, record.salt(), record.iterations()), record.hash());
    }
}
