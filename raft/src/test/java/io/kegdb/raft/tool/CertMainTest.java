package io.kegdb.raft.tool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kegdb cert's commands and exit codes. */
class CertMainTest {

    @TempDir
    Path dir;

    @Test
    void makesACaANodeAndAClient() {
        String d = dir.resolve("certs").toString();
        assertEquals(0, CertMain.run(new String[]{"ca", "--dir", d}));
        assertEquals(0, CertMain.run(new String[]{"node", "--dir", d, "--name", "n1", "--host", "127.0.0.1,db1"}));
        assertEquals(0, CertMain.run(new String[]{"client", "--dir", d, "--name", "alice"}));
        for (String f : new String[]{"ca.crt", "ca.key", "n1.crt", "n1.key", "alice.crt", "alice.key"}) {
            assertTrue(Files.isRegularFile(dir.resolve("certs").resolve(f)), f);
        }
        assertEquals(1, CertMain.run(new String[]{"ca", "--dir", d}), "a second CA is refused");
    }

    @Test
    void usageErrorsExitWith2() {
        String d = dir.toString();
        assertEquals(2, CertMain.run(new String[]{}));
        assertEquals(2, CertMain.run(new String[]{"server", "--dir", d}));
        assertEquals(2, CertMain.run(new String[]{"node", "--dir", d}));
        assertEquals(2, CertMain.run(new String[]{"client", "--dir", d, "--name", "a", "--host", "h"}));
        assertEquals(2, CertMain.run(new String[]{"ca", "extra", "--dir", d}));
        assertEquals(0, CertMain.run(new String[]{"--help"}));
        assertFalse(Files.exists(dir.resolve("ca.crt")));
    }
}
