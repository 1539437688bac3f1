package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Finds a thin client's leader by asking the configured peers, one after the other, whom they follow. Each
 * client has its own peer list (SOFAJRaft's RouteTable is one per JVM and keyed by group name only, so two
 * clients of same-named groups would overwrite each other's peers).
 */
public final class LeaderLookup implements GroupCaller.LeaderFinder {

    private final String group;
    private final List<PeerId> peers;
    private final Transport transport;
    private final AtomicInteger next = new AtomicInteger();

    public LeaderLookup(String group, Configuration conf, Transport transport) {
        this.group = group;
        this.peers = List.copyOf(conf.getPeers());
        this.transport = transport;
    }

    @Override
    public PeerId find(long timeoutMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int start = Math.floorMod(next.getAndIncrement(), peers.size());
        for (int i = 0; i < peers.size(); i++) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            PeerId peer = peers.get((start + i) % peers.size());
            try {
                KvResponse r = transport.send(peer, KvRequest.status(group), Math.min(left, 500));
                PeerId leader = r.leader == null ? null : PeerId.parsePeer(r.leader);
                if (r.status == KvResponse.OK && leader != null) {
                    return leader;
                }
            } catch (Exception e) {
                // down or unreachable: ask the next one
            }
        }
        return null;
    }
}
