package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.RaftMetaStorageOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BitcaskRaftMetaStorageTest {

    @TempDir
    Path dir;

    private BitcaskRaftMetaStorage open() {
        BitcaskRaftMetaStorage meta = new BitcaskRaftMetaStorage(dir.resolve("meta").toString(),
                TestLogs.raftOptions(true));
        assertTrue(meta.init(new RaftMetaStorageOptions()));
        return meta;
    }

    @Test
    void freshStorageHasTermZeroAndAnEmptyVote() {
        BitcaskRaftMetaStorage meta = open();
        try {
            assertEquals(0, meta.getTerm());
            assertNotNull(meta.getVotedFor());
            assertTrue(meta.getVotedFor().isEmpty());
        } finally {
            meta.shutdown();
        }
    }

    @Test
    void termAndVoteSurviveReopen() {
        BitcaskRaftMetaStorage meta = open();
        PeerId peer = PeerId.parsePeer("127.0.0.1:8081");
        assertTrue(meta.setTerm(3));
        assertTrue(meta.setVotedFor(peer));
        assertEquals(3, meta.getTerm());
        assertEquals(peer, meta.getVotedFor());
        meta.shutdown();

        meta = open();
        assertEquals(3, meta.getTerm());
        assertEquals(peer, meta.getVotedFor());
        PeerId other = PeerId.parsePeer("127.0.0.1:8082:1:50");
        assertTrue(meta.setTermAndVotedFor(9, other));
        meta.shutdown();

        meta = open();
        assertEquals(9, meta.getTerm());
        assertEquals(other, meta.getVotedFor());
        assertTrue(meta.setVotedFor(null), "clearing the vote stores an empty peer");
        meta.shutdown();

        meta = open();
        assertTrue(meta.getVotedFor().isEmpty());
        assertEquals(9, meta.getTerm());
        meta.shutdown();
    }

    @Test
    void useBeforeInitOrAfterShutdownIsAnIllegalState() {
        BitcaskRaftMetaStorage meta = new BitcaskRaftMetaStorage(dir.resolve("meta").toString(),
                TestLogs.raftOptions(true));
        assertThrows(IllegalStateException.class, meta::getTerm);
        assertThrows(IllegalStateException.class, meta::getVotedFor);
        assertThrows(IllegalStateException.class, () -> meta.setTerm(1));
        assertTrue(meta.init(new RaftMetaStorageOptions()));
        meta.shutdown();
        assertThrows(IllegalStateException.class, meta::getTerm);
    }

    @Test
    void initFailsWhenThePathIsAFile() throws Exception {
        Path file = Files.createFile(dir.resolve("file"));
        BitcaskRaftMetaStorage meta = new BitcaskRaftMetaStorage(file.toString(), TestLogs.raftOptions(true));
        assertFalse(meta.init(new RaftMetaStorageOptions()));
    }
}
