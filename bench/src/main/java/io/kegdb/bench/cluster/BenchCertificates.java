package io.kegdb.bench.cluster;

import io.kegdb.raft.security.CertificateFiles;
import io.kegdb.raft.security.TlsFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The certificates of a TLS cluster on 127.0.0.1 made for one benchmark run: a CA, one node certificate every
 * node of the cluster uses, and a client certificate {@code bench}, as PEM files in one directory.
 *
 * @param dir    where the files are
 * @param node   the nodes' TLS files
 * @param client the client's TLS files
 */
record BenchCertificates(Path dir, TlsFiles node, TlsFiles client) {

    /** Writes the CA, the node certificate and the client certificate into {@code dir}. */
    static BenchCertificates write(Path dir) throws IOException {
        CertificateFiles.writeCa(dir);
        CertificateFiles.writeNode(dir, "node", List.of("127.0.0.1"));
        CertificateFiles.writeClient(dir, "bench");
        return new BenchCertificates(dir,
                new TlsFiles(dir.resolve("ca.crt"), dir.resolve("node.crt"), dir.resolve("node.key")),
                new TlsFiles(dir.resolve("ca.crt"), dir.resolve("bench.crt"), dir.resolve("bench.key")));
    }

    /** The JDBC URL options of a TLS client with the client certificate: {@code ssl=true&sslrootcert=...}. */
    String jdbcOptions() {
        return "ssl=true&sslrootcert=" + client.ca() + "&sslcert=" + client.cert() + "&sslkey=" + client.key();
    }
}
