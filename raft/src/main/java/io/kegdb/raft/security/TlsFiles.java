package io.kegdb.raft.security;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The PEM files of one side of a TLS connection: the cluster's CA certificate, and this side's certificate
 * and private key. A node needs all three; a client needs the CA and may add a client certificate and key.
 * The files are read again whenever a connection is made, so replacing them takes effect without a restart.
 *
 * @param ca the CA certificate peers are checked against
 * @param cert this side's certificate, or null (a client without a certificate)
 * @param key this side's PKCS#8 private key, or null with {@code cert}
 */
public record TlsFiles(Path ca, Path cert, Path key) {

    public TlsFiles {
        if (ca == null) {
            throw new IllegalArgumentException("a CA certificate file is needed for TLS");
        }
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("a certificate needs its key and a key its certificate ("
                    + (cert == null ? "key " + key + " without a certificate" : "certificate " + cert + " without a key")
                    + ")");
        }
        for (Path p : new Path[]{ca, cert, key}) {
            if (p != null && !Files.isReadable(p)) {
                throw new IllegalArgumentException("cannot read " + p);
            }
        }
    }

    /**
     * The files of a node (or of a client when {@code nodeNeedsCertificate} is false) from three option
     * values, or null when all three are absent (no TLS).
     *
     * @throws IllegalArgumentException naming the missing or unreadable option
     */
    public static TlsFiles of(String ca, String cert, String key, boolean certificateRequired) {
        boolean none = blank(ca) && blank(cert) && blank(key);
        if (none) {
            return null;
        }
        if (blank(ca)) {
            throw new IllegalArgumentException("TLS needs the CA certificate too (--tls-ca, sslrootcert)");
        }
        if (certificateRequired && (blank(cert) || blank(key))) {
            throw new IllegalArgumentException("a node's TLS needs its certificate and key (--tls-cert and --tls-key)"
                    + " besides the CA");
        }
        return new TlsFiles(Path.of(ca.trim()), blank(cert) ? null : Path.of(cert.trim()),
                blank(key) ? null : Path.of(key.trim()));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** True when this side presents a certificate. */
    public boolean hasCertificate() {
        return cert != null;
    }
}
