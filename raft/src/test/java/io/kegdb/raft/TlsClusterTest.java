package io.kegdb.raft;

import com.alipay.sofa.jraft.CliService;
import com.alipay.sofa.jraft.RaftServiceFactory;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.RpcClient;
import com.alipay.sofa.jraft.rpc.RpcRequests;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.security.CertificateFiles;
import io.kegdb.raft.security.ClientCertificates;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.security.TransportSecurity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 3-node TLS cluster in this JVM: clients with the cluster's CA and a client certificate work; plain text,
 * another CA, a wrong host name or no certificate fail at once with a named cause and write nothing; a client
 * certificate cannot send Raft or membership RPCs; rogue nodes (another CA, no TLS) started with the
 * cluster's peers change nothing; replaced certificate files are used by new connections. A client without a
 * certificate is served only on a cluster with users, after a login, never for Raft or membership RPCs, and
 * not at all by nodes requiring client certificates.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TlsClusterTest {

    @TempDir
    Path dir;

    private Path certs;
    private TestCluster cluster;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void makeCertificates() throws IOException {
        certs = dir.resolve("certs");
        CertificateFiles.writeCa(certs);
        for (int i = 0; i < 3; i++) {
            CertificateFiles.writeNode(certs, "node" + i, List.of("127.0.0.1"));
        }
        CertificateFiles.writeClient(certs, "alice");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private TlsFiles nodeFiles(Path certDir, String name) {
        return new TlsFiles(certDir.resolve("ca.crt"), certDir.resolve(name + ".crt"), certDir.resolve(name + ".key"));
    }

    private TlsFiles aliceFiles() {
        return new TlsFiles(certs.resolve("ca.crt"), certs.resolve("alice.crt"), certs.resolve("alice.key"));
    }

    private int startCluster() throws Exception {
        cluster = new TestCluster(dir.resolve("nodes"), 3);
        cluster.tls = i -> nodeFiles(certs, "node" + i);
        cluster.startAll();
        return cluster.awaitLeader();
    }

    private KvStore client(String peers, TlsFiles tls) {
        KvStore c = RaftGroupClient.connect(TestCluster.GROUP, peers, Duration.ofSeconds(15),
                ReadConsistency.LINEARIZABLE, tls);
        closing.add(c);
        return c;
    }

    private static ReplicationException failure(Runnable call) {
        long start = System.nanoTime();
        ReplicationException e = assertThrows(ReplicationException.class, call::run);
        // a configuration error is not retried until the request timeout (15 s)
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "failed fast: " + e);
        return e;
    }

    @Test
    void clientWithCertificateWritesAndReadsEverywhere() throws Exception {
        int leader = startCluster();
        KvStore alice = client(cluster.peers(), aliceFiles());
        alice.put(b("k"), b("v"), Durability.SYNC);
        assertEquals("v", s(alice.get(b("k"))));
        // the write reached every node over TLS replication
        for (int i = 0; i < 3; i++) {
            RaftNode n = cluster.nodes.get(i);
            TestCluster.await(() -> n.node().getLastAppliedLogIndex() >= cluster.nodes.get(leader).node().getLastCommittedIndex(),
                    "node " + n + " applied the write");
        }
        // a member forwards its writes to the leader over TLS as well
        RaftNode follower = cluster.nodes.get((leader + 1) % 3);
        follower.put(b("f"), b("w"), Durability.SYNC);
        assertEquals("w", s(alice.get(b("f"))));
    }

    @Test
    void plainTextClientFailsAtOnceAndWritesNothing() throws Exception {
        startCluster();
        KvStore plain = client(cluster.peers(), null);
        ReplicationException e = failure(() -> plain.put(b("p"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.TLS, e.kind());
        assertTrue(e.getMessage().contains("requires TLS"), e.getMessage());
        assertNull(client(cluster.peers(), aliceFiles()).get(b("p")));
    }

    @Test
    void tlsClientAgainstNodesWithoutTlsFailsAtOnce() throws Exception {
        cluster = new TestCluster(dir.resolve("nodes"), 3);
        cluster.startAll();
        cluster.awaitLeader();
        KvStore tls = client(cluster.peers(), aliceFiles());
        ReplicationException e = failure(() -> tls.put(b("t"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.TLS, e.kind());
        assertTrue(e.getMessage().contains("plain text"), e.getMessage());
        assertNull(client(cluster.peers(), null).get(b("t")));
    }

    @Test
    void clientTrustingAnotherCaFails() throws Exception {
        startCluster();
        Path other = dir.resolve("other");
        CertificateFiles.writeCa(other);
        CertificateFiles.writeClient(other, "mallory");
        KvStore mallory = client(cluster.peers(), new TlsFiles(other.resolve("ca.crt"), other.resolve("mallory.crt"),
                other.resolve("mallory.key")));
        ReplicationException e = failure(() -> mallory.put(b("m"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.TLS, e.kind());
        assertTrue(e.getMessage().contains("untrusted CA"), e.getMessage());
        assertNull(client(cluster.peers(), aliceFiles()).get(b("m")));
    }

    @Test
    void hostNameMismatchFails() throws Exception {
        startCluster();
        // the certificates name 127.0.0.1 only
        String byName = cluster.peers().replace("127.0.0.1", "localhost");
        KvStore c = client(byName, aliceFiles());
        ReplicationException e = failure(() -> c.put(b("h"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.TLS, e.kind());
        assertTrue(e.getMessage().contains("host-name mismatch"), e.getMessage());
        assertNull(client(cluster.peers(), aliceFiles()).get(b("h")));
    }

    private TlsFiles caOnly() {
        return new TlsFiles(certs.resolve("ca.crt"), null, null);
    }

    @Test
    void clientWithoutCertificateIsRefusedByAClusterWithoutUsers() throws Exception {
        startCluster();
        KvStore anonymous = client(cluster.peers(), caOnly());
        ReplicationException e = failure(() -> anonymous.put(b("a"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED, e.kind());
        assertTrue(e.getMessage().contains("no users") && e.getMessage().contains("certificate"), e.getMessage());
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED,
                failure(() -> ((ClusterUsers) anonymous).login("ADMIN", "anything")).kind(), "no login to prove");
        assertNull(client(cluster.peers(), aliceFiles()).get(b("a")));
    }

    @Test
    void clientWithoutCertificateLogsInWithAPasswordAndSendsNoRaftOrMembershipRpcs() throws Exception {
        cluster = new TestCluster(dir.resolve("nodes"), 3);
        cluster.tls = i -> nodeFiles(certs, "node" + i);
        cluster.adminPassword = "admin-secret";
        cluster.startAll();
        int leader = cluster.awaitLeader();
        KvStore anonymous = client(cluster.peers(), caOnly());
        // before a login: the status, and nothing else
        assertTrue(((RaftGroupView) anonymous).members().stream().anyMatch(r -> r.role().equals("LEADER")));
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED,
                failure(() -> anonymous.put(b("early"), b("x"), Durability.SYNC)).kind());
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED, failure(() -> anonymous.get(b("early"))).kind());
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED,
                failure(() -> ((ClusterUsers) anonymous).login("ADMIN", "wrong")).kind());
        loginWhenAdminExists((ClusterUsers) anonymous, "admin-secret");
        anonymous.put(b("k"), b("v"), Durability.SYNC);
        assertEquals("v", s(anonymous.get(b("k"))));
        leader = cluster.awaitLeader();
        awaitQuietLog(cluster.nodes.get(leader)); // every node's first-admin attempt has been answered
        int refused = attack(leader, TransportSecurity.client(caOnly()), ReplicationException.Kind.NOT_AUTHORIZED,
                "the caller presented no certificate, not a node certificate");
        assertEquals(4, refused);
        assertNull(anonymous.get(b("early")), "the refused write wrote nothing");
    }

    private static void awaitQuietLog(RaftNode leader) throws InterruptedException {
        for (int round = 0; round < 20; round++) {
            long before = leader.node().getLastLogIndex();
            Thread.sleep(1000);
            if (leader.node().getLastLogIndex() == before) {
                return;
            }
        }
        throw new AssertionError("the log kept growing without clients");
    }

    /** The first admin exists once the group elected a leader and applied its creation. */
    private static void loginWhenAdminExists(ClusterUsers users, String password) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                users.login("ADMIN", password);
                return;
            } catch (ReplicationException e) {
                assertTrue(System.nanoTime() < deadline, "the first admin never appeared: " + e);
                Thread.sleep(100);
            }
        }
    }

    @Test
    void requiredClientCertificatesEndAClientWithoutOneAtTheHandshake() throws Exception {
        cluster = new TestCluster(dir.resolve("nodes"), 3);
        cluster.tls = i -> nodeFiles(certs, "node" + i);
        cluster.clientCertificates = ClientCertificates.REQUIRED;
        cluster.startAll();
        cluster.awaitLeader();
        KvStore anonymous = client(cluster.peers(), caOnly());
        ReplicationException e = failure(() -> anonymous.put(b("r"), b("x"), Durability.SYNC));
        assertEquals(ReplicationException.Kind.TLS, e.kind(), e.toString());
        assertTrue(e.getMessage().contains("requires a client certificate"), e.getMessage());
        KvStore alice = client(cluster.peers(), aliceFiles());
        alice.put(b("a"), b("1"), Durability.SYNC);
        assertEquals("1", s(alice.get(b("a"))));
        assertNull(alice.get(b("r")), "the refused client wrote nothing");
    }

    @Test
    void clientCertificateCannotSendRaftOrMembershipRpcs() throws Exception {
        int leader = startCluster();
        client(cluster.peers(), aliceFiles()).put(b("before"), b("1"), Durability.SYNC);
        int refused = attack(leader, TransportSecurity.client(aliceFiles()), ReplicationException.Kind.NOT_AUTHORIZED,
                "only nodes of the cluster may send");
        assertEquals(4, refused);
        assertEquals("1", s(client(cluster.peers(), aliceFiles()).get(b("before"))));
    }

    /**
     * Sends a follower an AppendEntries and a RequestVote of a much higher term (either would make an
     * unguarded follower step to that term), and asks the group to add a peer and to move its leadership,
     * all with {@code credentials}; then checks that term, membership, leader and log did not change.
     *
     * @return the number of refused attempts (all of them)
     */
    private int attack(int leader, TransportSecurity credentials, ReplicationException.Kind kind, String refusal)
            throws Exception {
        RaftNode leaderNode = cluster.nodes.get(leader);
        int victim = (leader + 1) % 3;
        RaftNode target = cluster.nodes.get(victim);
        long term = target.status().term();
        long lastIndex = leaderNode.node().getLastLogIndex();
        List<PeerId> members = leaderNode.node().listPeers();

        CliClientServiceImpl rpc = new CliClientServiceImpl();
        rpc.init(credentials.configureClient(new CliOptions()));
        closing.add(rpc::shutdown);
        PeerId targetId = PeerId.parsePeer(cluster.addresses.get(victim));
        String rogue = "127.0.0.1:" + TestCluster.freePort();
        int refused = 0;

        RpcRequests.AppendEntriesRequest append = RpcRequests.AppendEntriesRequest.newBuilder()
                .setGroupId(TestCluster.GROUP).setServerId(rogue).setPeerId(targetId.toString())
                .setTerm(term + 10).setPrevLogIndex(lastIndex).setPrevLogTerm(term).setCommittedIndex(lastIndex)
                .build();
        RpcClient calls = credentials.calls(rpc.getRpcClient()).client();
        refused += refused(calls, targetId, append, kind, refusal);
        RpcRequests.RequestVoteRequest vote = RpcRequests.RequestVoteRequest.newBuilder()
                .setGroupId(TestCluster.GROUP).setServerId(rogue).setPeerId(targetId.toString())
                .setTerm(term + 10).setLastLogIndex(lastIndex + 100).setLastLogTerm(term + 9).setPreVote(false)
                .build();
        refused += refused(calls, targetId, vote, kind, refusal);

        CliOptions cliOptions = credentials.configureClient(new CliOptions());
        cliOptions.setTimeoutMs(3000);
        cliOptions.setMaxRetry(0);
        CliService cli = RaftServiceFactory.createAndInitCliService(cliOptions);
        closing.add(cli::shutdown);
        Configuration conf = new Configuration();
        for (String a : cluster.addresses) {
            conf.addPeer(PeerId.parsePeer(a));
        }
        Status added = cli.addPeer(TestCluster.GROUP, conf, PeerId.parsePeer(rogue));
        assertFalse(added.isOk());
        refused++;
        Status transferred = cli.transferLeader(TestCluster.GROUP, conf, targetId);
        assertFalse(transferred.isOk(), transferred.toString());
        refused++;

        Thread.sleep(2 * TestCluster.ELECTION_TIMEOUT_MS);
        assertEquals(leader, cluster.awaitLeader());
        assertEquals(members, leaderNode.node().listPeers());
        for (RaftNode n : cluster.nodes) {
            assertEquals(term, n.status().term(), n.status().toString());
            assertEquals(lastIndex, n.node().getLastLogIndex(), n.status().toString());
        }
        return refused;
    }

    /** 1 if the request was refused, by the node's answer or by a failed TLS handshake; fails otherwise. */
    private static int refused(RpcClient calls, PeerId target, Object request, ReplicationException.Kind kind,
                               String refusal) {
        ReplicationException e = assertThrows(ReplicationException.class,
                () -> calls.invokeSync(target.getEndpoint(), request, 5000));
        assertEquals(kind, e.kind(), e.toString());
        assertTrue(e.getMessage().contains(refusal), e.getMessage());
        return 1;
    }

    @Test
    void rogueNodesWithAnotherCaOrWithoutTlsChangeNothing() throws Exception {
        int leader = startCluster();
        KvStore alice = client(cluster.peers(), aliceFiles());
        alice.put(b("k"), b("v"), Durability.SYNC);
        RaftNode leaderNode = cluster.nodes.get(leader);
        long term = leaderNode.status().term();
        List<PeerId> members = leaderNode.node().listPeers();
        long lastIndex = leaderNode.node().getLastLogIndex();

        Path other = dir.resolve("rogue-ca");
        CertificateFiles.writeCa(other);
        CertificateFiles.writeNode(other, "rogue", List.of("127.0.0.1"));
        List<RaftNode> rogues = new ArrayList<>();
        for (TlsFiles tls : new TlsFiles[]{nodeFiles(other, "rogue"), null}) {
            String self = "127.0.0.1:" + TestCluster.freePort();
            RaftNode rogue = RaftNode.start(RaftNodeOptions.builder()
                    .dir(dir.resolve("rogue-" + rogues.size())).group(TestCluster.GROUP).self(self)
                    .peers(cluster.peers() + "," + self).electionTimeoutMs(TestCluster.ELECTION_TIMEOUT_MS)
                    .tls(tls).build());
            rogues.add(rogue);
            closing.add(rogue);
        }
        // the rogues stand for election (pre-votes to every listed peer), and would take any append
        Thread.sleep(6L * TestCluster.ELECTION_TIMEOUT_MS);
        // and then they try harder: a high-term append and vote, a join and a leader transfer each
        int refused = attack(leader, TransportSecurity.node(nodeFiles(other, "rogue")), ReplicationException.Kind.TLS,
                "untrusted CA");
        refused += attack(leader, TransportSecurity.open(), ReplicationException.Kind.TLS, "requires TLS");
        assertEquals(8, refused);
        for (RaftNode rogue : rogues) {
            assertFalse(rogue.isLeader());
            assertEquals(0, rogue.node().getLastLogIndex(), "no entry reached " + rogue.status());
        }
        assertEquals(leader, cluster.awaitLeader());
        assertEquals(members, leaderNode.node().listPeers());
        for (RaftNode n : cluster.nodes) {
            assertEquals(term, n.status().term(), n.status().toString());
            assertEquals(lastIndex, n.node().getLastLogIndex());
        }
        assertEquals("v", s(alice.get(b("k"))));
    }

    @Test
    void replacedCertificateIsUsedByNewConnectionsWhileLoggedInClientsGoOn() throws Exception {
        cluster = new TestCluster(dir.resolve("nodes"), 3);
        cluster.tls = i -> nodeFiles(certs, "node" + i);
        cluster.adminPassword = "admin-secret";
        cluster.startAll();
        cluster.awaitLeader();
        KvStore working = client(cluster.peers(), caOnly());
        loginWhenAdminExists((ClusterUsers) working, "admin-secret");
        working.put(b("before"), b("1"), Durability.SYNC);
        int port = Integer.parseInt(cluster.addresses.get(0).split(":")[1]);
        BigInteger before = servedCertificate(port).getSerialNumber();

        // rotate node0 (same CA, a new key): new files written beside and moved over the old ones
        Path fresh = dir.resolve("fresh");
        Files.createDirectories(fresh);
        Files.copy(certs.resolve("ca.crt"), fresh.resolve("ca.crt"));
        Files.copy(certs.resolve("ca.key"), fresh.resolve("ca.key"));
        CertificateFiles.writeNode(fresh, "node0", List.of("127.0.0.1"));
        Files.move(fresh.resolve("node0.key"), certs.resolve("node0.key"), StandardCopyOption.REPLACE_EXISTING);
        Files.move(fresh.resolve("node0.crt"), certs.resolve("node0.crt"), StandardCopyOption.REPLACE_EXISTING);

        BigInteger after = servedCertificate(port).getSerialNumber();
        assertFalse(before.equals(after), "node0 serves its new certificate without a restart");
        assertEquals(CertificateFiles.readCertificate(certs.resolve("node0.crt")).getSerialNumber(), after);
        // a new client of node0 alone connects to it with the new certificate and logs in
        KvStore fresher = client(cluster.addresses.get(0), caOnly());
        ((ClusterUsers) fresher).login("ADMIN", "admin-secret");
        fresher.put(b("rotated"), b("yes"), Durability.SYNC);
        assertEquals("yes", s(fresher.get(b("rotated"))));
        // the client logged in before goes on with its ticket: one request per call, no second login
        double sent = requestsSent(working);
        working.put(b("after"), b("2"), Durability.SYNC);
        assertEquals("yes", s(working.get(b("rotated"))));
        assertEquals(2, requestsSent(working) - sent, "no login was needed again");
        assertEquals("1", s(working.get(b("before"))));
    }

    private static double requestsSent(KvStore store) {
        return store.meters().stream().filter(m -> m.name().equals("kegdb.raft.client.requests")).findFirst()
                .orElseThrow().read();
    }

    /** The certificate a node presents to a new TLS connection (the JDK's own client, trusting the CA). */
    private X509Certificate servedCertificate(int port) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", CertificateFiles.readCertificate(certs.resolve("ca.crt")));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) ssl.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
