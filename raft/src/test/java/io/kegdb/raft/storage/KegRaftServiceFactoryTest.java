package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.util.JRaftServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KegRaftServiceFactoryTest {

    @TempDir
    Path dir;

    @Test
    void serviceLoaderPicksTheKegFactoryOverTheDefault() {
        assertInstanceOf(KegRaftServiceFactory.class, JRaftServiceLoader.load(JRaftServiceFactory.class).first());
        assertInstanceOf(KegRaftServiceFactory.class, new NodeOptions().getServiceFactory());
    }

    @Test
    void createsBitcaskStoragesAndKeepsTheDefaultCodec() {
        KegRaftServiceFactory factory = KegRaftServiceFactory.newInstance();
        NodeOptions options = new NodeOptions();
        assertInstanceOf(BitcaskLogStorage.class,
                factory.createLogStorage(dir.resolve("log").toString(), options.getRaftOptions()));
        assertInstanceOf(BitcaskRaftMetaStorage.class,
                factory.createRaftMetaStorage(dir.resolve("meta").toString(), options.getRaftOptions()));
        assertInstanceOf(com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory.class,
                factory.createLogEntryCodecFactory());
        assertThrows(IllegalArgumentException.class, () -> factory.createLogStorage(" ", options.getRaftOptions()));
        assertThrows(IllegalArgumentException.class,
                () -> factory.createRaftMetaStorage("", options.getRaftOptions()));
    }

    @Test
    void nothingLogsThroughLog4j() {
        // SOFAJRaft and bolt log through SLF4J; no Log4j 1 or 2 implementation may sneak onto the classpath.
        for (String name : new String[] {"org.apache.log4j.Logger", "org.apache.logging.log4j.core.Logger",
                "org.apache.logging.log4j.LogManager"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name), name);
        }
    }
}
