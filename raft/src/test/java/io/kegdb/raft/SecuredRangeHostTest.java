package io.kegdb.raft;

import io.kegdb.engine.AccessDeniedException;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.security.CertificateFiles;
import io.kegdb.raft.security.TlsFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three TLS nodes with users, each a {@link RangeHost}: a split asked for over the wire is an admin's only
 * (42501 otherwise, and nothing changes), checked like every request; the range it makes is a second group on
 * the same hosts, served with the hosts' TLS and checking its clients' tickets and privileges against the
 * cluster's users, which only the meta range holds: a user's granted read is served there, a write he may not
 * make is refused there, and nothing is written.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SecuredRangeHostTest {

    private static final String NAME = "sec";
    private static final int TABLE = 9;

    @TempDir
    Path dir;

    private final List<RangeHost> hosts = new ArrayList<>();
    private final List<KvStore> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        clients.forEach(KvStore::close);
        hosts.forEach(RangeHost::close);
    }

    private static byte[] key(int n) {
        return ByteBuffer.allocate(8).putInt(TABLE).putInt(n).array();
    }

    private KvStore client(String group, String peers, TlsFiles tls) {
        KvStore c = RaftGroupClient.connect(group, peers, Duration.ofSeconds(10), ReadConsistency.LINEARIZABLE, tls);
        clients.add(c);
        return c;
    }

    private static void login(KvStore client, String user, String password) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                ((ClusterUsers) client).login(user, password);
                return;
            } catch (ReplicationException e) {
                assertTrue(System.nanoTime() < deadline, "the login of " + user + " never worked: " + e);
                Thread.sleep(100);
            }
        }
    }

    @Test
    void aSplitRangeIsServedWithTheHostsTlsAndUsers() throws Exception {
        Path certs = dir.resolve("certs");
        CertificateFiles.writeCa(certs);
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CertificateFiles.writeNode(certs, "node" + i, List.of("127.0.0.1"));
            addresses.add("127.0.0.1:" + TestCluster.freePort());
        }
        String peers = String.join(",", addresses);
        for (int i = 0; i < 3; i++) {
            hosts.add(RangeHost.start(RaftNodeOptions.builder().dir(dir.resolve("host-" + i)).group(NAME)
                    .self(addresses.get(i)).peers(peers).electionTimeoutMs(TestCluster.ELECTION_TIMEOUT_MS)
                    .tls(new TlsFiles(certs.resolve("ca.crt"), certs.resolve("node" + i + ".crt"),
                            certs.resolve("node" + i + ".key")))
                    .adminPassword("admin-secret").build()));
        }
        TlsFiles caOnly = new TlsFiles(certs.resolve("ca.crt"), null, null);
        KvStore admin = client(NAME, peers, caOnly);
        login(admin, "ADMIN", "admin-secret");
        admin.put(key(1), b("one"), Durability.SYNC);
        ((ClusterUsers) admin).manage(UserCommand.create("BOB", "bob-secret", false, false));
        ((ClusterUsers) admin).manage(UserCommand.grant(true, "BOB", Privilege.SELECT.bit(), "PUBLIC.T", TABLE));
        ((ClusterUsers) admin).manage(UserCommand.create("CAROL", "carol-secret", false, false));

        byte[] at = ByteBuffer.allocate(4).putInt(TABLE).array();
        KvStore bobMeta = client(NAME, peers, caOnly);
        login(bobMeta, "BOB", "bob-secret");
        AccessDeniedException notAdmin = assertThrows(AccessDeniedException.class,
                () -> ((RangeSplitter) bobMeta).split(at));
        assertTrue(notAdmin.getMessage().contains("admins only"), notAdmin.getMessage());
        assertEquals(1, ((RangeView) admin).ranges().size(), "the refused split changed nothing");
        assertEquals("22023", assertThrows(RefusedException.class,
                () -> ((RangeSplitter) admin).split(new byte[]{0, 0, 0, 0, 7})).sqlState(), "the system span");

        RangeDescriptor made = ((RangeSplitter) admin).split(at);
        assertEquals(2, made.id());
        assertNull(((RangeSplitter) admin).split(at), "asked again: split there already, nothing changes");
        assertEquals(2, ((RangeView) admin).ranges().size());
        String right = "sec_r" + made.id();
        TestCluster.await(() -> hosts.stream().filter(h -> h.isLeader(right)).count() == 1, right + " has a leader");

        RaftNode rightReplica = hosts.get(0).replica(right);
        assertEquals("one", s(rightReplica.get(key(1))), "the pair moved to the new range's group");
        assertThrows(ReplicationException.class, () -> hosts.get(0).store(NAME).get(key(1)), "not range 1's now");

        KvStore plain = RaftGroupClient.connect(NAME, peers, Duration.ofSeconds(3));
        clients.add(plain);
        assertThrows(ReplicationException.class, () -> plain.get(key(1)), "plain text reaches no range");
        KvStore anonymous = client(NAME, peers, caOnly);
        assertEquals(ReplicationException.Kind.NOT_AUTHORIZED,
                assertThrows(ReplicationException.class, () -> anonymous.get(key(1))).kind(), "no ticket, no data");

        // the admin's reads and writes of the table now go to the new range's group (the route learned from
        // range 1's stale answer), which checks the admin's ticket by the meta range's users
        assertEquals("one", s(admin.get(key(1))));
        admin.put(key(2), b("two"), Durability.SYNC);
        assertEquals("two", s(rightReplica.get(key(2))));

        // BOB's read teaches his client the route; his write then goes to the new range, which refuses it
        KvStore bob = client(NAME, peers, caOnly);
        login(bob, "BOB", "bob-secret");
        assertEquals("two", s(bob.get(key(2))), "BOB has SELECT on the table");
        AccessDeniedException write = assertThrows(AccessDeniedException.class,
                () -> bob.put(key(3), b("three"), Durability.SYNC));
        assertTrue(write.getMessage().contains("INSERT"), write.getMessage());
        assertNull(rightReplica.get(key(3)), "the refused write wrote nothing");

        KvStore carol = client(NAME, peers, caOnly);
        login(carol, "CAROL", "carol-secret");
        assertThrows(AccessDeniedException.class, () -> carol.get(key(1)), "CAROL has no privilege on the table");
    }
}
