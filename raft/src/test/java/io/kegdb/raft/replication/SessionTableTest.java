package io.kegdb.raft.replication;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;

import static io.kegdb.raft.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The state machine's memory of client sessions: duplicates, floors, expiry by log time, snapshots. */
class SessionTableTest {

    private static final SessionId A = new SessionId(1, 1);
    private static final SessionId B = new SessionId(2, 2);
    private static final DataStore.Outcome OK = new DataStore.Outcome(KvResponse.OK, null, true);

    @Test
    void aRequestIsNewOnceThenAnsweredWithItsFirstResult() {
        SessionTable t = new SessionTable();
        t.advance(1000);
        t.open(A);
        assertNull(t.answerWithoutApplying(A, 1, 1));
        DataStore.Outcome exists = new DataStore.Outcome(KvResponse.KEY_EXISTS, b("k"), false);
        t.record(A, 1, exists);
        assertSame(exists, t.answerWithoutApplying(A, 1, 1));
        assertNull(t.answerWithoutApplying(A, 2, 1), "the next serial is new");
        // another session's serial 1 is its own
        t.open(B);
        assertNull(t.answerWithoutApplying(B, 1, 1));
    }

    @Test
    void resultsBelowTheFloorAreForgottenAndSuchResendsAreNotApplied() {
        SessionTable t = new SessionTable();
        t.open(A);
        for (long serial = 1; serial <= 3; serial++) {
            assertNull(t.answerWithoutApplying(A, serial, 1));
            t.record(A, serial, OK);
        }
        assertNull(t.answerWithoutApplying(A, 4, 3), "the client waits for 3 and later only");
        assertEquals(KvResponse.REQUEST_DISCARDED, t.answerWithoutApplying(A, 1, 3).status());
        assertSame(OK, t.answerWithoutApplying(A, 3, 3));
        // a floor never moves back
        assertEquals(KvResponse.REQUEST_DISCARDED, t.answerWithoutApplying(A, 2, 1).status());
    }

    @Test
    void unknownAndIdleSessionsAreRefusedByLogTimeAlone() {
        SessionTable t = new SessionTable();
        assertEquals(KvResponse.SESSION_UNKNOWN, t.answerWithoutApplying(A, 1, 1).status());
        t.advance(10_000);
        t.open(A);
        t.open(B);
        t.advance(10_000 + SessionTable.EXPIRY_MS - 1);
        assertNull(t.answerWithoutApplying(A, 1, 1), "A was used just in time");
        t.record(A, 1, OK);
        // a leader whose clock is behind does not move the log time back
        t.advance(5);
        t.advance(10_000 + SessionTable.EXPIRY_MS + 1);
        assertEquals(KvResponse.SESSION_UNKNOWN, t.answerWithoutApplying(B, 1, 1).status());
        assertSame(OK, t.answerWithoutApplying(A, 1, 1));
        t.advance(10_000 + 3 * SessionTable.EXPIRY_MS);
        assertEquals(0, t.size(), "swept");
    }

    @Test
    void theTableSurvivesItsSnapshotCopy() throws Exception {
        SessionTable t = new SessionTable();
        t.advance(77);
        t.open(A);
        assertNull(t.answerWithoutApplying(A, 5, 5));
        t.record(A, 5, new DataStore.Outcome(KvResponse.WRITE_CONFLICT, b("key"), false));
        t.open(B);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            t.writeTo(out);
        }
        SessionTable back = new SessionTable();
        back.open(new SessionId(9, 9));
        back.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(2, back.size());
        DataStore.Outcome conflict = back.answerWithoutApplying(A, 5, 5);
        assertEquals(KvResponse.WRITE_CONFLICT, conflict.status());
        assertArrayEquals(b("key"), conflict.existingKey());
        assertNull(back.answerWithoutApplying(B, 1, 1));
        assertEquals(KvResponse.SESSION_UNKNOWN, back.answerWithoutApplying(new SessionId(9, 9), 1, 1).status());
        // the log time came along: expiry continues from it
        back.advance(78 + SessionTable.EXPIRY_MS);
        assertEquals(KvResponse.SESSION_UNKNOWN, back.answerWithoutApplying(A, 6, 6).status());
    }
}
