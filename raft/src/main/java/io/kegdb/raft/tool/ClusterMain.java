package io.kegdb.raft.tool;

import com.alipay.sofa.jraft.CliService;
import com.alipay.sofa.jraft.RaftServiceFactory;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import io.kegdb.engine.AccessDeniedException;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.RangeSplitter;
import io.kegdb.raft.RangeStatus;
import io.kegdb.raft.RangeView;
import io.kegdb.raft.RefusedException;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.SplitCommand;
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
 * remove or make leader. And splits by hand (docs/SCALE.md, "Splits"): {@code split --group G --peers ...
 * --table T --at VALUE} splits the range holding that key of table T there, {@code --key HEX} at a store key.
 * The store key of a table's key value is the SQL layer's encoding, which this module does not have: the
 * driver's launcher gives it ({@link KeyEncoding}). Exits 0 on success, 1 on failure, 2 on bad usage.
 */
public final class ClusterMain {

    private static final Set<String> COMMANDS = Set.of("status", "add-peer", "remove-peer", "transfer-leader",
            "split");
    private static final Set<String> OPTIONS = CommandLine.withTls(Set.of("group", "peers", "peer", "timeout-ms",
            "user", "password-file", "table", "at", "key"));
    private static final String USAGE = "usage: kegdb cluster status|add-peer|remove-peer|transfer-leader"
            + " --group G --peers H1:P1,H2:P2,H3:P3 [--peer HOST:PORT] [--timeout-ms MS]"
            + " [--tls-ca CA.crt --tls-cert CERT --tls-key KEY] [--user NAME [--password-file FILE]]"
            + " (membership changes on a TLS cluster need a node's certificate; status and split log in with"
            + " --user, asking for the password on the terminal without --password-file);"
            + " kegdb cluster split --group G --peers H1:P1,... --table T --at VALUE | --key HEX"
            + " (admins only on a cluster with users)";

    /**
     * How a key value of a table becomes its store key: the SQL layer's key encoding, which the raft module
     * cannot import (the driver's launcher implements it by reading the catalog).
     */
    public interface KeyEncoding {
        /**
         * The store key of key value {@code value} (its SQL text) of table {@code table} ({@code [SCHEMA.]NAME},
         * SQL's identifier rules), the catalog read through {@code store}, a logged-in store of the meta range.
         *
         * @throws IllegalArgumentException naming what is wrong: no such table, a value its key does not take
         */
        byte[] storeKey(KvStore store, String table, String value);
    }

    private ClusterMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.console(), null));
    }

    /** Runs one command without a terminal and returns the process exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, null, null);
    }

    /**
     * Runs one command and returns the process exit code.
     *
     * @param console where to ask for the password of {@code --user} without {@code --password-file}, or null
     * @param keys    the store keys of {@code split --table T --at VALUE}, or null: only {@code --key HEX}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, java.io.Console console,
                          KeyEncoding keys) {
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
        SplitPoint splitPoint = null;
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
            // A split waits for a log entry, the new range's replica on every node and the meta range's writes.
            timeoutMs = cl.intOption("timeout-ms", command.equals("split") ? 60_000 : 5000);
            tls = cl.tls(false);
            user = cl.optional("user", null);
            password = cl.secretFile("password-file");
            if (user != null && password == null) {
                password = PasswordPrompt.ask(user, console);
            }
            security = TransportSecurity.client(tls);
            if (command.equals("split")) {
                splitPoint = SplitPoint.parse(cl.optional("table", null), cl.optional("at", null),
                        cl.optional("key", null), keys);
            } else if (!command.equals("status")) {
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
        if (splitPoint != null) {
            return split(group, peersText, timeoutMs, tls, user, password, splitPoint, out, err);
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
            // proves the credentials (the status itself is answered to any certificate of the CA)
            login(store, user, password);
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

    /** Logs {@code store} in as {@code user} (SQL's identifier rules: upper case unless quoted); none: nothing. */
    private static void login(KvStore store, String user, String password) {
        if (user != null) {
            ((ClusterUsers) store).login(user.startsWith("\"") ? user.replace("\"", "")
                    : user.toUpperCase(java.util.Locale.ROOT), password);
        }
    }

    /**
     * Splits the range holding the split point there: looks the range up in the meta range (group {@code group}),
     * asks it to split (the cluster's store routes the request to that range's group, whose leader runs it,
     * {@link RangeSplitter}), then prints every range.
     */
    private static int split(String group, String peers, int timeoutMs, TlsFiles tls, String user, String password,
                             SplitPoint point, PrintStream out, PrintStream err) {
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (KvStore meta = RaftGroupClient.connect(group, peers, timeout, ReadConsistency.LINEARIZABLE, tls)) {
            login(meta, user, password);
            byte[] at = point.storeKey(meta);
            RangeDescriptor range = rangeOf(meta, at);
            String shown = RangeDescriptor.printable(at);
            if (java.util.Arrays.equals(range.start(), at)) {
                out.println("range " + range.id() + " starts at " + shown + " already: nothing to split");
            } else {
                String rangeGroup = SplitCommand.groupOf(group, range.id());
                RangeDescriptor made = ((RangeSplitter) meta).split(at);
                out.println("split range " + range.id() + " (group " + rangeGroup + ") at " + shown
                        + (made == null ? ": the range ends there now (split by an earlier attempt or another"
                        + " request)" : ": new range " + made.id() + " (group "
                        + SplitCommand.groupOf(group, made.id()) + ")"));
            }
            for (RangeStatus r : ((RangeView) meta).ranges()) {
                out.printf("range   %-4d [%s, %s)  generation %d  replicas %s%n", r.id(), r.start(),
                        r.end() == null ? "" : r.end(), r.generation(), String.join(",", r.replicas()));
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("kegdb cluster: split: " + e.getMessage());
            return 2;
        } catch (AccessDeniedException | RefusedException | ReplicationException e) {
            err.println("kegdb cluster: split of group " + group + " failed: " + e.getMessage());
            return 1;
        }
    }

    /** The range holding {@code key}, as the meta range knows it (before it holds any copy: range 1). */
    private static RangeDescriptor rangeOf(KvStore meta, byte[] key) {
        try (KvIterator found = meta.scan(MetaKeys.lookupFrom(key), MetaKeys.descriptorsEnd())) {
            return found.hasNext() ? RangeDescriptor.decode(found.next().value())
                    : RangeDescriptor.initial(List.of());
        }
    }

    /** Where {@code split} splits: a key value of a table, or a store key given in hex. */
    private record SplitPoint(String table, String value, byte[] key, KeyEncoding keys) {

        static SplitPoint parse(String table, String value, String hex, KeyEncoding keys) {
            if (hex != null) {
                if (table != null || value != null) {
                    throw new IllegalArgumentException("split takes --table and --at, or --key, not both");
                }
                return new SplitPoint(null, null, hexKey(hex), null);
            }
            if (table == null || value == null) {
                throw new IllegalArgumentException("split needs --table T --at VALUE (or --key HEX)");
            }
            if (keys == null) {
                throw new IllegalArgumentException("--table and --at need the SQL key encoding, which this tool"
                        + " lacks: run ./kegdb cluster split, or give the store key with --key HEX");
            }
            return new SplitPoint(table, value, null, keys);
        }

        byte[] storeKey(KvStore meta) {
            return key != null ? key : keys.storeKey(meta, table, value);
        }

        private static byte[] hexKey(String hex) {
            try {
                byte[] key = java.util.HexFormat.of().parseHex(hex);
                if (key.length > 0) {
                    return key;
                }
            } catch (IllegalArgumentException e) {
                // named below
            }
            throw new IllegalArgumentException("--key is a store key in hex digits (two a byte), not '" + hex + "'");
        }
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
