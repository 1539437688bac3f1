package io.kegdb.raft.range;

import io.kegdb.engine.WriteBatch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.raft.range.RouteCheck.Verdict.NO_RANGE;
import static io.kegdb.raft.range.RouteCheck.Verdict.SERVE;
import static io.kegdb.raft.range.RouteCheck.Verdict.STALE_ROUTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a replica serves and applies, by the descriptor it holds. */
class RouteCheckTest {

    private static final byte[] M = {'m'};
    private static final byte[] T = {'t'};
    /** Range 4 = [m, t), generation 3. */
    private final RangeDescriptor middle = new RangeDescriptor(4, M, T, 3, 2, List.of("h:1"));

    private static byte[] k(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aReadIsServedOnlyForItsRangeGenerationAndBounds() {
        assertEquals(SERVE, RouteCheck.read(middle, 4, 3, k("p")));
        assertEquals(STALE_ROUTE, RouteCheck.read(middle, 4, 2, k("p")), "an older generation");
        assertEquals(STALE_ROUTE, RouteCheck.read(middle, 4, 4, k("p")), "a newer one (this replica lags)");
        assertEquals(STALE_ROUTE, RouteCheck.read(middle, 4, 3, k("t")), "the end is outside");
        assertEquals(SERVE, RouteCheck.read(middle, 4, 3, k("m")), "the start is inside");
        assertEquals(NO_RANGE, RouteCheck.read(middle, 5, 3, k("p")));
        assertEquals(SERVE, RouteCheck.read(middle, RouteCheck.UNNAMED, 0, k("z")), "an old client: no check");
        assertEquals(SERVE, RouteCheck.read(middle, 4, 3, M, T));
        assertEquals(STALE_ROUTE, RouteCheck.read(middle, 4, 3, M, null), "open to the end");
        assertEquals(STALE_ROUTE, RouteCheck.read(middle, 4, 3, null, T), "open from the first key");
        assertEquals(SERVE, RouteCheck.read(RangeDescriptor.initial(List.of()), 1, 1, null, null));
    }

    @Test
    void aWriteAppliesOnlyWithEveryKeyAndSpanInside() {
        assertEquals(SERVE, RouteCheck.write(middle, 4, 3, new WriteBatch().put(k("m"), k("1")).delete(k("s"))));
        assertEquals(STALE_ROUTE, RouteCheck.write(middle, 4, 2, new WriteBatch().put(k("n"), k("1"))));
        assertEquals(STALE_ROUTE, RouteCheck.write(middle, 3, 3, new WriteBatch().put(k("n"), k("1"))),
                "an entry naming another range is stale, never served");
        for (WriteBatch outside : List.of(new WriteBatch().put(k("n"), k("1")).put(k("t"), k("1")),
                new WriteBatch().delete(k("a")), new WriteBatch().putIfAbsent(k("z"), k("1")),
                new WriteBatch().expect(k("a"), null).put(k("n"), k("1")),
                new WriteBatch().expectPresent(k("u")).put(k("n"), k("1")),
                new WriteBatch().expectRange(k("l"), k("o"), 1).put(k("n"), k("1")),
                new WriteBatch().expectRange(k("n"), null, 1).put(k("n"), k("1")))) {
            assertEquals(STALE_ROUTE, RouteCheck.write(middle, 4, 3, outside), outside.toString());
            assertEquals(STALE_ROUTE, RouteCheck.write(middle, RouteCheck.UNNAMED, 0, outside),
                    "an old client's write is checked against the bounds");
        }
        assertEquals(SERVE, RouteCheck.write(middle, 4, 3, new WriteBatch().expectRange(k("m"), k("t"), 1)));
        assertEquals(SERVE, RouteCheck.write(middle, RouteCheck.UNNAMED, 0, new WriteBatch().put(k("p"), k("1"))));
        RangeDescriptor all = RangeDescriptor.initial(List.of());
        assertEquals(SERVE, RouteCheck.write(all, RouteCheck.UNNAMED, 0,
                new WriteBatch().expectRange(null, null, 1).put(new byte[0], k("1"))), "one range holds everything");
    }

    @Test
    void spansAndTheRangesSpan() {
        assertTrue(middle.containsSpan(k("m"), k("n")));
        assertFalse(middle.containsSpan(k("m"), k("u")));
        assertTrue(MetaKeys.isRangeKey(MetaKeys.descriptorKey(null)));
        assertTrue(MetaKeys.isRangeKey(MetaKeys.LOCAL_DESCRIPTOR));
        assertFalse(MetaKeys.isRangeKey(new byte[] {0, 0, 0, 0, 'T'}));
        assertFalse(MetaKeys.isRangeKey(new byte[] {0, 0, 0, 1, (byte) 0xFF}));
        assertTrue(MetaKeys.touchesRanges(null, null));
        assertFalse(MetaKeys.touchesRanges(new byte[] {0, 0, 0, 0, 'A'}, new byte[] {0, 0, 0, 0, 'B'}));
        assertEquals("\\x00\\x00\\x00\\x07k\\\\", RangeDescriptor.printable(new byte[] {0, 0, 0, 7, 'k', '\\'}));
        assertEquals("", RangeDescriptor.printable(new byte[0]));
    }
}
