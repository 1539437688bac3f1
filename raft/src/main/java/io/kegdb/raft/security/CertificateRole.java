package io.kegdb.raft.security;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;

/**
 * What a certificate of the cluster's CA lets its holder be. A <b>node</b> certificate carries the URI
 * subject alternative name {@value #NODE_MARKER} and the extended key usages serverAuth and clientAuth; any
 * other certificate of the CA is a <b>client</b> certificate (clientAuth only, no marker), naming its user in
 * the subject's common name. {@code kegdb cert} writes both kinds ({@link CertificateFiles}).
 */
public enum CertificateRole {
    /** A member of the cluster: may send Raft and membership RPCs. */
    NODE,
    /** A user's certificate: may send client requests, never Raft or membership RPCs. */
    CLIENT;

    /** The URI subject alternative name that marks a node certificate. */
    public static final String NODE_MARKER = "kegdb:node";

    static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final int URI_NAME = 6;

    /** The role of a certificate already verified against the cluster's CA. */
    public static CertificateRole of(X509Certificate certificate) {
        return hasNodeMarker(certificate) && hasUsage(certificate, SERVER_AUTH) && hasUsage(certificate, CLIENT_AUTH)
                ? NODE : CLIENT;
    }

    private static boolean hasNodeMarker(X509Certificate certificate) {
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names == null) {
                return false;
            }
            for (List<?> name : names) {
                if (name.size() == 2 && Integer.valueOf(URI_NAME).equals(name.get(0)) && NODE_MARKER.equals(name.get(1))) {
                    return true;
                }
            }
            return false;
        } catch (CertificateParsingException e) {
            return false;
        }
    }

    private static boolean hasUsage(X509Certificate certificate, String oid) {
        try {
            List<String> usages = certificate.getExtendedKeyUsage();
            return usages != null && usages.contains(oid);
        } catch (CertificateParsingException e) {
            return false;
        }
    }

    /** The common name of the certificate's subject ({@code CN=}), or its whole subject if it has none. */
    public static String commonName(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            // an RFC 2253 name from the JDK always parses; fall back to the whole subject
        }
        return subject;
    }
}
