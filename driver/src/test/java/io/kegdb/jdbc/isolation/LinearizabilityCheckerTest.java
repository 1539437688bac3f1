package io.kegdb.jdbc.isolation;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kegdb.jdbc.isolation.RegisterOperation.UNKNOWN;
import static io.kegdb.jdbc.isolation.RegisterOperation.read;
import static io.kegdb.jdbc.isolation.RegisterOperation.readWrite;
import static io.kegdb.jdbc.isolation.RegisterOperation.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker on histories whose answer is known. */
@Tag("isolation")
class LinearizabilityCheckerTest {

    @Test
    void overlappingOperationsMayTakeEffectInEitherOrder() {
        // write 1 overlaps both reads: read 0 then read 1 linearizes, as does the write before a later read
        List<RegisterOperation> h = List.of(write(1, 0, 10), read(0, 1, 3), read(1, 4, 6), read(1, 11, 12));
        assertEquals(List.of(), violation(h));
    }

    @Test
    void aStaleReadAfterAnAnsweredWriteIsRejected() {
        List<RegisterOperation> h = List.of(write(1, 0, 2), read(0, 3, 4));
        assertTrue(LinearizabilityChecker.violation(h, 0).isPresent());
    }

    @Test
    void aReadThatGoesBackInTimeIsRejected() {
        // two reads in real-time order see 1 then 0 while the write of 1 overlaps both: never linearizable
        List<RegisterOperation> h = List.of(write(1, 0, 100), read(1, 10, 20), read(0, 30, 40));
        assertTrue(LinearizabilityChecker.violation(h, 0).isPresent());
    }

    @Test
    void aLostUpdateBetweenTwoReadModifyWritesIsRejected() {
        // both read 0 and wrote their own value: one of them must have read the other's
        List<RegisterOperation> h = List.of(readWrite(0, 7, 0, 10), readWrite(0, 8, 1, 11), read(8, 12, 13));
        assertTrue(LinearizabilityChecker.violation(h, 0).isPresent());
    }

    @Test
    void aChainOfReadModifyWritesIsAccepted() {
        List<RegisterOperation> h = List.of(readWrite(0, 7, 0, 10), readWrite(7, 8, 1, 11), read(8, 12, 13));
        assertEquals(List.of(), violation(h));
    }

    @Test
    void aWriteWithUnknownOutcomeMayHaveHappenedOrNot() {
        assertEquals(List.of(), violation(List.of(write(5, 0, UNKNOWN), read(0, 1, 2), read(5, 3, 4))));
        assertEquals(List.of(), violation(List.of(write(5, 0, UNKNOWN), read(0, 1, 2))));
        // but once it was seen it cannot be unseen
        assertTrue(LinearizabilityChecker.violation(
                List.of(write(5, 0, UNKNOWN), read(5, 1, 2), read(0, 3, 4)), 0).isPresent());
    }

    @Test
    void aLongConcurrentGoodHistoryIsAcceptedQuickly() {
        // 4 clients, 300 operations, each write overlapping its neighbours: the memo keeps the search small
        List<RegisterOperation> h = new ArrayList<>();
        long value = 0;
        for (int i = 0; i < 300; i++) {
            long t = i * 10L;
            if (i % 3 == 0) {
                h.add(write(i + 1, t, t + 25));
                value = i + 1;
            } else {
                h.add(read(value, t + 26, t + 28));
            }
        }
        long start = System.nanoTime();
        assertEquals(List.of(), violation(h));
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "checked in under 5 s");
    }

    private static List<String> violation(List<RegisterOperation> h) {
        return LinearizabilityChecker.violation(h, 0).stream().toList();
    }
}
