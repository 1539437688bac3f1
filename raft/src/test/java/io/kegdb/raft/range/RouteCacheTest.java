package io.kegdb.raft.range;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's route cache: lookups by end key, newer descriptors replacing overlapping older ones, precise forgetting. */
class RouteCacheTest {

    private static final List<String> REPLICAS = List.of("127.0.0.1:1");
    private static final byte[] AT = {0, 0, 0, 9};
    private static final byte[] AT2 = {0, 0, 0, 20};

    private static RangeDescriptor range(long id, byte[] start, byte[] end, long generation) {
        return new RangeDescriptor(id, start, end, generation, 1, REPLICAS);
    }

    private static final RangeDescriptor WHOLE = RangeDescriptor.initial(REPLICAS);
    private static final RangeDescriptor LEFT = range(1, new byte[0], AT, 2);
    private static final RangeDescriptor RIGHT = range(2, AT, null, 2);

    @Test
    void theInitialRouteHoldsEveryKey() {
        RouteCache cache = new RouteCache(WHOLE);
        assertEquals(WHOLE, cache.holding(new byte[0]));
        assertEquals(WHOLE, cache.holding(new byte[]{(byte) 0xFF, 1}));
        assertEquals(WHOLE, cache.holdingBelow(null));
        assertEquals(WHOLE, cache.holdingBelow(AT));
        assertNull(cache.holdingBelow(new byte[0]), "no key lies below the empty key");
    }

    @Test
    void aSplitsHalfReplacesTheWholeAndLeavesAGapUntilTheOtherIsLearned() {
        RouteCache cache = new RouteCache(WHOLE);
        assertTrue(cache.learn(LEFT));
        assertEquals(List.of(LEFT), cache.all(), "the older whole range overlapped it and is gone");
        assertEquals(LEFT, cache.holding(new byte[]{0, 0, 0, 8, 1}));
        assertNull(cache.holding(AT), "the split key is the right half's: not known yet");
        assertNull(cache.holdingBelow(null));
        assertEquals(LEFT, cache.holdingBelow(AT), "the keys just below the split key are the left half's");
        assertTrue(cache.learn(RIGHT));
        assertEquals(RIGHT, cache.holding(AT));
        assertEquals(RIGHT, cache.holdingBelow(null));
        assertEquals(RIGHT, cache.holdingBelow(new byte[]{0, 0, 0, 9, 0}));
        assertEquals(List.of(LEFT, RIGHT), cache.all());
    }

    @Test
    void anOlderDescriptorNeverReplacesANewerOne() {
        RouteCache cache = new RouteCache(LEFT);
        assertTrue(cache.learn(RIGHT));
        assertFalse(cache.learn(WHOLE), "a meta range lagging the split answers the whole range");
        assertEquals(List.of(LEFT, RIGHT), cache.all());
        assertTrue(cache.learn(LEFT), "learned already");
        // the same range at the same generation after a move: the higher replica version wins
        RangeDescriptor moved = new RangeDescriptor(2, AT, null, 2, 2, List.of("127.0.0.1:2"));
        assertTrue(cache.learn(moved));
        assertFalse(cache.learn(RIGHT));
        assertEquals(moved, cache.holding(AT2));
    }

    @Test
    void aSecondSplitReplacesOnlyTheRangeItSplit() {
        RouteCache cache = new RouteCache(LEFT);
        cache.learn(RIGHT);
        RangeDescriptor middle = range(2, AT, AT2, 3);
        RangeDescriptor last = range(3, AT2, null, 3);
        assertTrue(cache.learn(last));
        assertEquals(List.of(LEFT, last), cache.all());
        assertNull(cache.holding(AT));
        assertTrue(cache.learn(middle));
        assertEquals(List.of(LEFT, middle, last), cache.all());
        assertEquals(middle, cache.holdingBelow(AT2));
        assertEquals(last, cache.holding(AT2));
    }

    @Test
    void forgettingDropsExactlyTheDescriptorGiven() {
        RouteCache cache = new RouteCache(LEFT);
        cache.learn(RIGHT);
        cache.forget(range(2, AT, null, 3)); // not the one cached
        assertEquals(RIGHT, cache.holding(AT));
        cache.forget(RIGHT);
        assertNull(cache.holding(AT));
        assertEquals(LEFT, cache.holding(new byte[]{0, 0, 0, 1}));
    }
}
