package io.kegdb.raft.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kegdb cert's files: what the certificates say, who signed them, and who may read the keys. */
class CertificateFilesTest {

    @TempDir
    Path dir;

    @Test
    void caIsSelfSignedAndMayOnlySignCertificates() throws Exception {
        CertificateFiles.writeCa(dir);
        X509Certificate ca = CertificateFiles.readCertificate(dir.resolve("ca.crt"));
        ca.verify(ca.getPublicKey());
        assertEquals(0, ca.getBasicConstraints());
        assertTrue(ca.getKeyUsage()[5], "keyCertSign");
        assertEquals("EC", ca.getPublicKey().getAlgorithm());
        assertEquals("SHA256withECDSA", ca.getSigAlgName());
        assertOwnerOnly(dir.resolve("ca.key"));
        assertThrows(FileAlreadyExistsException.class, () -> CertificateFiles.writeCa(dir));
    }

    @Test
    void nodeCertificateNamesItsHostsAndIsMarkedAsANode() throws Exception {
        CertificateFiles.writeCa(dir);
        CertificateFiles.writeNode(dir, "n1", List.of("10.0.0.7", "db1.example.com", "::1"));
        X509Certificate ca = CertificateFiles.readCertificate(dir.resolve("ca.crt"));
        X509Certificate node = CertificateFiles.readCertificate(dir.resolve("n1.crt"));
        node.verify(ca.getPublicKey());
        assertEquals("n1", CertificateRole.commonName(node));
        assertEquals(Set.of(List.of(7, "10.0.0.7"), List.of(2, "db1.example.com"), List.of(7, "0:0:0:0:0:0:0:1"),
                List.of(6, CertificateRole.NODE_MARKER)), Set.copyOf(node.getSubjectAlternativeNames()));
        assertEquals(List.of(CertificateRole.SERVER_AUTH, CertificateRole.CLIENT_AUTH), node.getExtendedKeyUsage());
        assertEquals(-1, node.getBasicConstraints());
        assertEquals(CertificateRole.NODE, CertificateRole.of(node));
        assertOwnerOnly(dir.resolve("n1.key"));
        assertKeyMatches(CertificateFiles.readKey(dir.resolve("n1.key")), node);
    }

    @Test
    void clientCertificateIsNeverANode() throws Exception {
        CertificateFiles.writeCa(dir);
        CertificateFiles.writeClient(dir, "alice");
        X509Certificate client = CertificateFiles.readCertificate(dir.resolve("alice.crt"));
        client.verify(CertificateFiles.readCertificate(dir.resolve("ca.crt")).getPublicKey());
        assertEquals(List.of(CertificateRole.CLIENT_AUTH), client.getExtendedKeyUsage());
        assertNull(client.getSubjectAlternativeNames());
        assertEquals(CertificateRole.CLIENT, CertificateRole.of(client));
        assertEquals("alice", CertificateRole.commonName(client));
        assertOwnerOnly(dir.resolve("alice.key"));
    }

    @Test
    void rerunningReplacesTheFilesWithANewKey() throws Exception {
        CertificateFiles.writeCa(dir);
        CertificateFiles.writeNode(dir, "n1", CertificateFiles.DEFAULT_HOSTS);
        byte[] first = Files.readAllBytes(dir.resolve("n1.key"));
        CertificateFiles.writeNode(dir, "n1", CertificateFiles.DEFAULT_HOSTS);
        assertTrue(!java.util.Arrays.equals(first, Files.readAllBytes(dir.resolve("n1.key"))));
        try (var files = Files.list(dir)) {
            assertEquals(Set.of("ca.crt", "ca.key", "n1.crt", "n1.key"),
                    Set.copyOf(files.map(p -> p.getFileName().toString()).toList()), "no temporary file is left");
        }
    }

    @Test
    void badRequestsAreRefusedAndWriteNothing() throws Exception {
        assertTrue(assertThrows(java.io.IOException.class, () -> CertificateFiles.writeClient(dir, "bob"))
                .getMessage().contains("no CA"));
        CertificateFiles.writeCa(dir);
        assertThrows(IllegalArgumentException.class, () -> CertificateFiles.writeClient(dir, "../evil"));
        assertThrows(IllegalArgumentException.class, () -> CertificateFiles.writeClient(dir, "ca"));
        assertThrows(IllegalArgumentException.class, () -> CertificateFiles.writeNode(dir, "n", List.of("bad host")));
        assertThrows(IllegalArgumentException.class, () -> CertificateFiles.writeNode(dir, "n", List.of()));
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count());
        }
    }

    private static void assertOwnerOnly(Path key) throws Exception {
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(key));
        assertTrue(Files.readString(key).startsWith("-----BEGIN PRIVATE KEY-----"));
    }

    private static void assertKeyMatches(PrivateKey key, X509Certificate certificate) throws Exception {
        byte[] data = {1, 2, 3};
        Signature sign = Signature.getInstance("SHA256withECDSA");
        sign.initSign(key);
        sign.update(data);
        byte[] signature = sign.sign();
        Signature verify = Signature.getInstance("SHA256withECDSA");
        verify.initVerify(certificate.getPublicKey());
        verify.update(data);
        assertTrue(verify.verify(signature));
    }
}
