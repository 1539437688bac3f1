package io.kegdb.raft.tool;

import com.alipay.sofa.jraft.CliService;
import com.alipay.sofa.jraft.RaftServiceFactory;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.RaftGroupClient;
import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftStatus;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.security.TransportSecurity;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Membership of a running Raft group through SOFAJRaft's {@code CliService}:
 * {@code ClusterMain status|add-peer|remove-peer|transfer-leader --group G --peers H1:P1,H2:P2 [--peer H:P]}.
 * {@code --peers} lists current members (any that answer suffice); {@code --peer} names the node to add,
 * remove or make leader. Exits 0 on success, 1 on failure, 2 on bad usage.
 */
public final class ClusterMain {

    private static final Set<String> COMMANDS = Set.of("status", "add-peer", "remove-peer", "transfer-leader");
    private static final Set<String> OPTIONS = CommandLine.withTls(Set.of("group", "peers", "peer", "timeout-ms",
            "user", "password-file"));
    private static final String USAGE = "usage: kegdb cluster status|add-peer|remove-peer|transfer-leader"
            + " --group G --peers H1:P1,H2:P2,H3:P3 [--peer HOST:PORT] [--timeout-ms MS]"
            + " [--tls-ca CA.crt --tls-cert CERT --tls-key KEY] [--user NAME [--password-file FILE]]"
            + " (membership changes on a TLS cluster need a node's certificate; status logs in with --user,"
            + " asking for the password on the terminal without --password-file)";

    private ClusterMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.console()));
    }

    /** Runs one command without a terminal and returns the process exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, null);
    }

    /**
     * Runs one command and returns the process exit code.
     *
     * @param console where to ask for the password of {@code --user} without {@code --password-file}, or null
     */
    static int run(String[] args, PrintStream out, PrintStream err, java.io.Console console) {
        String command;
        String group;
        Configuration conf;
        String peersText;
        PeerId peer = null;
        int timeoutMs;
        String user;
        String password;
        TlsFiles tls;
        TransportSecurity security;
        try {
            CommandLine cl = CommandLine.parse(args, OPTIONS);
            if (cl.words.size() != 1) {
                throw new IllegalArgumentException("expected one command, got " + cl.words);
            }
            command = cl.words.get(0);
            if (!COMMANDS.contains(command)) {
                throw new IllegalArgumentException("unknown command '" + command + "'");
            }
            group = cl.required("group");
            peersText = cl.required("peers");
            conf = PeerList.parse(peersText);
            timeoutMs = cl.intOption("timeout-ms", 5000);
            tls = cl.tls(false);
            user = cl.optional("user", null);
            password = cl.secretFile("password-file");
            if (user != null && password == null) {
                password = PasswordPrompt.ask(user, console);
            }
            security = TransportSecurity.client(tls);
            if (!command.equals("status")) {
                peer = PeerId.parsePeer(cl.required("peer"));
                if (peer == null || peer.getPort() <= 0) {
                    throw new IllegalArgumentException("--peer must be host:port");
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("kegdb cluster: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (IOException e) {
            err.println("kegdb cluster: " + e.getMessage());
            return 2;
        }
        CliOptions cliOptions = security.configureClient(new CliOptions());
        cliOptions.setTimeoutMs(timeoutMs);
        CliService cli = RaftServiceFactory.createAndInitCliService(cliOptions);
        try {
            Status st;
            switch (command) {
                case "status" -> {
                    return status(group, peersText, timeoutMs, tls, user, password, out, err);
                }
                case "add-peer" -> st = cli.addPeer(group, conf, peer);
                case "remove-peer" -> st = cli.removePeer(group, conf, peer);
                case "transfer-leader" -> st = cli.transferLeader(group, conf, peer);
                default -> {
                    err.println("kegdb cluster: unknown command " + command);
                    err.println(USAGE);
                    return 2;
                }
            }
            if (!st.isOk()) {
                err.println("kegdb cluster: " + command + " " + peer + " failed: " + st);
                return 1;
            }
            if (command.equals("transfer-leader")) {
                out.println(command + " " + peer + ": ok");
            } else {
                out.println(command + " " + peer + ": ok; peers now " + cli.getPeers(group, conf(conf, command, peer)));
            }
            return 0;
        } catch (RuntimeException e) {
            err.println("kegdb cluster: " + command + " failed: " + e);
            return 1;
        } finally {
            cli.shutdown();
        }
    }

    /** Every member's own view: role, term, commit and applied index, log range. */
    private static int status(String group, String peers, int timeoutMs, TlsFiles tls, String user,
                              String password, PrintStream out, PrintStream err) {
        List<RaftStatus> rows;
        String leader;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try (KvStore store = RaftGroupClient.connect(group, peers, Duration.ofMillis(timeoutMs),
                ReadConsistency.LINEARIZABLE, tls)) {
            if (user != null) {
                // proves the credentials (the status itself is answered to any certificate of the CA)
                ((ClusterUsers) store).login(user.startsWith("\"") ? user.replace("\"", "")
                        : user.toUpperCase(java.util.Locale.ROOT), password);
            }
            // During an election there is no leader yet: ask again until one appears or the timeout passes.
            while (true) {
                rows = ((RaftGroupView) store).members();
                leader = rows.stream().filter(r -> r.role().equals("LEADER")).map(RaftStatus::node)
                        .findFirst().orElse(null);
                if (leader != null || System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(100);
            }
        } catch (ReplicationException e) {
            err.println("kegdb cluster: status of group " + group + " failed: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("kegdb cluster: interrupted");
            return 1;
        }
        out.println("group   " + group);
        out.println("leader  " + (leader == null ? "(none)" : leader));
        for (RaftStatus r : rows) {
            if (r.role().equals(RaftStatus.UNREACHABLE)) {
                out.printf("peer    %-21s unreachable%n", r.node());
                continue;
            }
            out.printf("peer    %-21s %-11s term %d  commit %d  applied %d  log %d..%d%n", r.node(), r.role(),
                    r.term(), r.commitIndex(), r.appliedIndex(), r.firstLogIndex(), r.lastLogIndex());
        }
        if (leader == null) {
            err.println("kegdb cluster: group " + group + " has no leader reachable through " + peers);
            return 1;
        }
        return 0;
    }

    /** The members to ask after a change: a removed peer may already be gone. */
    private static Configuration conf(Configuration conf, String command, PeerId peer) {
        Configuration c = conf.copy();
        if (command.equals("remove-peer")) {
            c.removePeer(peer);
        } else if (command.equals("add-peer")) {
            c.addPeer(peer);
        }
        return c;
    }
}
