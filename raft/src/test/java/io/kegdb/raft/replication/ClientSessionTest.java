package io.kegdb.raft.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The client's floor never passes a write still in progress, however many threads write at once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientSessionTest {

    @Test
    void noFloorSentWhileAWriteIsInProgressPassesItsSerial() throws Exception {
        ClientSession session = new ClientSession();
        AtomicLong highestFloor = new AtomicLong();
        AtomicReference<String> violation = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 50_000 && violation.get() == null; i++) {
                    long serial = session.begin();
                    // every floor computed so far, by any thread, was computed before this write ended
                    long seen = highestFloor.get();
                    if (seen > serial) {
                        violation.set("a floor of " + seen + " was sent while write " + serial + " was in progress");
                    }
                    highestFloor.accumulateAndGet(session.floor(), Math::max);
                    session.end(serial);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertNull(violation.get());
        assertEquals(400_001, session.floor(), "nothing in progress: the next serial");
    }
}
