package io.kegdb.engine;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** A {@link KeyDir} on {@link ConcurrentSkipListMap}: simple and ordered, but about 100 bytes per key. */
final class SkipListKeyDir implements KeyDir {

    private final ConcurrentSkipListMap<byte[], Long> map = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

    @Override
    public long get(byte[] key) {
        Long loc = map.get(key);
        return loc == null ? NONE : loc;
    }

    @Override
    public long put(byte[] key, long location) {
        Long prev = map.put(key.clone(), location);
        return prev == null ? NONE : prev;
    }

    @Override
    public long remove(byte[] key) {
        Long prev = map.remove(key);
        return prev == null ? NONE : prev;
    }

    @Override
    public boolean replace(byte[] key, long expected, long update) {
        return map.replace(key, expected, update);
    }

    @Override
    public long size() {
        return map.size();
    }

    @Override
    public long memoryBytes() {
        long keyBytes = 0;
        long n = 0;
        for (byte[] k : map.keySet()) {
            keyBytes += 16 + ((k.length + 7) & ~7);
            n++;
        }
        // node (24) + Long (16) + amortized index nodes (~12) per entry.
        return keyBytes + n * 52;
    }

    @Override
    public Cursor cursor(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        NavigableMap<byte[], Long> view = map;
        if (fromInclusive != null && toExclusive != null) {
            if (Arrays.compareUnsigned(fromInclusive, toExclusive) >= 0) {
                view = map.subMap(fromInclusive, true, fromInclusive, false);
            } else {
                view = map.subMap(fromInclusive, true, toExclusive, false);
            }
        } else if (fromInclusive != null) {
            view = map.tailMap(fromInclusive, true);
        } else if (toExclusive != null) {
            view = map.headMap(toExclusive, false);
        }
        Iterator<Map.Entry<byte[], Long>> it = (descending ? view.descendingMap() : view).entrySet().iterator();
        return new Cursor() {
            private Map.Entry<byte[], Long> current;

            @Override
            public boolean next() {
                if (!it.hasNext()) {
                    current = null;
                    return false;
                }
                current = it.next();
                return true;
            }

            @Override
            public byte[] key() {
                return current.getKey().clone();
            }

            @Override
            public long location() {
                return current.getValue();
            }
        };
    }
}
