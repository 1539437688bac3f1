package io.kegdb.raft;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;

/** Parses {@code host:port,host:port,...} into a configuration, naming the entry that does not parse. */
public final class PeerList {

    private PeerList() {
    }

    public static Configuration parse(String peers) {
        Configuration conf = new Configuration();
        for (String part : peers.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            PeerId peer = PeerId.parsePeer(p);
            if (peer == null || peer.getPort() <= 0) {
                throw new IllegalArgumentException("peer must be host:port, not '" + p + "' in " + peers);
            }
            conf.addPeer(peer);
        }
        if (conf.isEmpty()) {
            throw new IllegalArgumentException("no peers in '" + peers + "'");
        }
        return conf;
    }
}
