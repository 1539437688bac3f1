package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.PeerId;

import java.util.List;

/** Configuration entries for seeding a configuration manager. */
final class TestLogsConfs {

    private TestLogsConfs() {
    }

    static ConfigurationEntry at(long index) {
        return new ConfigurationEntry(new LogId(index, 1), new Configuration(List.of(PeerId.parsePeer("127.0.0.1:9"))),
                null);
    }
}
