package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;

/** Turns configuration log entries into the {@link ConfigurationEntry} a configuration manager keeps. */
final class ConfigurationEntries {

    private ConfigurationEntries() {
    }

    static boolean isConfiguration(LogEntry entry) {
        return entry.getType() == EntryType.ENTRY_TYPE_CONFIGURATION;
    }

    static ConfigurationEntry of(LogEntry entry) {
        ConfigurationEntry conf = new ConfigurationEntry();
        conf.setId(new LogId(entry.getId().getIndex(), entry.getId().getTerm()));
        conf.setConf(new Configuration(entry.getPeers(), entry.getLearners()));
        if (entry.getOldPeers() != null) {
            conf.setOldConf(new Configuration(entry.getOldPeers(), entry.getOldLearners()));
        }
        return conf;
    }
}
