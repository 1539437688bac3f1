package io.kegdb.raft.security;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;
import org.bouncycastle.util.io.pem.PemWriter;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Makes a cluster's certificates as PEM files: a CA ({@code ca.crt}, {@code ca.key}), node certificates
 * ({@code NAME.crt}, {@code NAME.key}, with the node's host names and IPs as subject alternative names and the
 * {@link CertificateRole#NODE_MARKER node marker}) and client certificates (the user's name as common name),
 * all EC P-256 signed with SHA-256. BouncyCastle builds the certificates; keys and signatures come from the
 * JDK's own providers. Keys are PKCS#8 PEM created readable by the owner only (mode 600 at creation, where
 * the file system has POSIX permissions). A file is written beside its target and moved over it, so a node
 * that reloads its files never reads half of one.
 */
public final class CertificateFiles {

    /** The CA's certificate and key file names in a certificate directory. */
    public static final String CA_CERT = "ca.crt";
    public static final String CA_KEY = "ca.key";
    /** Hosts a node certificate names when none are given. */
    public static final List<String> DEFAULT_HOSTS = List.of("127.0.0.1", "localhost");

    private static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final Duration LEAF_VALIDITY = Duration.ofDays(825);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private CertificateFiles() {
    }

    /**
     * Writes a new CA into {@code dir} (created if missing).
     *
     * @throws FileAlreadyExistsException if {@code dir} already holds a CA: a new one would orphan every
     *         certificate it signed
     */
    public static Path writeCa(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path cert = dir.resolve(CA_CERT);
        if (Files.exists(cert) || Files.exists(dir.resolve(CA_KEY))) {
            throw new FileAlreadyExistsException(cert.toString(), null,
                    "a CA already exists there; certificates it signed would no longer be trusted by a new one");
        }
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.O, "KegDB")
                .addRDN(BCStyle.CN, "KegDB cluster CA " + Long.toHexString(RANDOM.nextLong() & Long.MAX_VALUE))
                .build();
        Instant now = Instant.now();
        try {
            KeyPair keys = newKeyPair();
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(CA_VALIDITY)), subject,
                    keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            builder.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            X509Certificate ca = sign(builder, keys.getPrivate());
            writeKey(dir.resolve(CA_KEY), keys.getPrivate());
            writeCertificate(cert, ca);
            return cert;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot make a CA: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code NAME.crt} and {@code NAME.key} for a node, signed by the CA in {@code dir}, replacing an
     * older pair of the same name (a rotation).
     *
     * @param hosts the host names and IP addresses clients and peers reach the node by
     */
    public static Path writeNode(Path dir, String name, List<String> hosts) throws IOException {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a node certificate needs at least one host");
        }
        List<GeneralName> names = new ArrayList<>();
        for (String host : hosts) {
            names.add(hostName(host));
        }
        names.add(new GeneralName(GeneralName.uniformResourceIdentifier, CertificateRole.NODE_MARKER));
        return writeLeaf(dir, name, names, new KeyPurposeId[]{KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth});
    }

    /** Writes {@code USER.crt} and {@code USER.key} for a client, signed by the CA in {@code dir}. */
    public static Path writeClient(Path dir, String user) throws IOException {
        return writeLeaf(dir, user, List.of(), new KeyPurposeId[]{KeyPurposeId.id_kp_clientAuth});
    }

    private static Path writeLeaf(Path dir, String name, List<GeneralName> altNames, KeyPurposeId[] usages)
            throws IOException {
        if (!NAME.matcher(name).matches() || name.equals("ca")) {
            throw new IllegalArgumentException("a certificate name is 1 to 64 letters, digits, '.', '_' or '-'"
                    + " (not starting with '.', '_' or '-', and not 'ca'), not '" + name + "'");
        }
        Path caCert = dir.resolve(CA_CERT);
        Path caKey = dir.resolve(CA_KEY);
        if (!Files.exists(caCert) || !Files.exists(caKey)) {
            throw new IOException("no CA in " + dir + " (make one first: kegdb cert ca --dir " + dir + ")");
        }
        try {
            X509Certificate ca = readCertificate(caCert);
            PrivateKey signer = readKey(caKey);
            KeyPair keys = newKeyPair();
            X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "KegDB")
                    .addRDN(BCStyle.CN, name).build();
            Instant now = Instant.now();
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(LEAF_VALIDITY)), toX500(subject),
                    keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usages));
            if (!altNames.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(altNames.toArray(GeneralName[]::new)));
            }
            builder.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            builder.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
            X509Certificate leaf = sign(builder, signer);
            Path cert = dir.resolve(name + ".crt");
            writeKey(dir.resolve(name + ".key"), keys.getPrivate());
            writeCertificate(cert, leaf);
            return cert;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot make the certificate " + name + ": " + e.getMessage(), e);
        }
    }

    private static javax.security.auth.x500.X500Principal toX500(X500Name name) throws IOException {
        return new javax.security.auth.x500.X500Principal(name.getEncoded());
    }

    private static GeneralName hostName(String host) {
        String h = host.trim();
        if (h.isEmpty()) {
            throw new IllegalArgumentException("an empty host name");
        }
        if (IPV4.matcher(h).matches() || h.contains(":")) {
            String ip = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
            return new GeneralName(GeneralName.iPAddress, ip);
        }
        if (!h.matches("[A-Za-z0-9*]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            throw new IllegalArgumentException("not a host name or IP address: '" + h + "'");
        }
        return new GeneralName(GeneralName.dNSName, h);
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey key)
            throws OperatorCreationException, GeneralSecurityException {
        ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(key);
        X509CertificateHolder holder = builder.build(signer);
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    /** Reads the first certificate of a PEM file. */
    public static X509Certificate readCertificate(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (GeneralSecurityException e) {
            throw new IOException(file + " holds no PEM certificate: " + e.getMessage(), e);
        }
    }

    /** Reads an EC private key from a PKCS#8 PEM file ({@code -----BEGIN PRIVATE KEY-----}). */
    public static PrivateKey readKey(Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PemReader pem = new PemReader(in)) {
            PemObject object = pem.readPemObject();
            if (object == null || !object.getType().equals("PRIVATE KEY")) {
                throw new IOException(file + " holds no PKCS#8 PEM private key");
            }
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(object.getContent()));
        } catch (GeneralSecurityException e) {
            throw new IOException(file + " holds no EC private key: " + e.getMessage(), e);
        }
    }

    private static void writeCertificate(Path file, X509Certificate certificate) throws IOException {
        try {
            writeAtomically(file, pem("CERTIFICATE", certificate.getEncoded()), false);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot encode a certificate: " + e.getMessage(), e);
        }
    }

    private static void writeKey(Path file, PrivateKey key) throws IOException {
        writeAtomically(file, pem("PRIVATE KEY", key.getEncoded()), true);
    }

    private static byte[] pem(String type, byte[] der) throws IOException {
        StringWriter text = new StringWriter();
        try (PemWriter writer = new PemWriter(text)) {
            writer.writeObject(new PemObject(type, der));
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes a temporary file beside {@code file} (owner-only from creation when private) and moves it over. */
    private static void writeAtomically(Path file, byte[] content, boolean ownerOnly) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
        FileAttribute<?>[] attributes = posix
                ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                        ownerOnly ? "rw-------" : "rw-r--r--"))}
                : new FileAttribute<?>[0];
        Path temp = dir.resolve("." + file.getFileName() + "." + Long.toHexString(RANDOM.nextLong()) + ".tmp");
        try {
            try (var channel = Files.newByteChannel(temp, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), attributes)) {
                var buffer = java.nio.ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
            try (var channel = java.nio.channels.FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
