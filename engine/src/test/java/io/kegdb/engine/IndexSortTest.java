package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IndexSortTest {

    @Test
    void sortsLikeTheJdkForEverySizeAndManyDuplicates() {
        Random rnd = new Random(11);
        for (int n : new int[] {0, 1, 2, 3, 7, 8, 9, 100, 1023, 1024, 1025, 50_000}) {
            for (int distinct : new int[] {1, 5, Integer.MAX_VALUE}) {
                long[] values = new long[n];
                for (int i = 0; i < n; i++) {
                    values[i] = distinct == Integer.MAX_VALUE ? rnd.nextLong() : rnd.nextInt(distinct);
                }
                int[] indexes = new int[n + 3]; // only the first n are sorted
                Integer[] expected = new Integer[n];
                for (int i = 0; i < n; i++) {
                    indexes[i] = i;
                    expected[i] = i;
                }
                indexes[n] = -1;
                indexes[n + 1] = -2;
                indexes[n + 2] = -3;
                // Ties broken by index, as the hint writer breaks them by file position.
                IndexSort.sort(indexes, n, (a, b) -> values[a] != values[b] ? Long.compare(values[a], values[b])
                        : Integer.compare(a, b));
                Arrays.sort(expected, Comparator.<Integer>comparingLong(i -> values[i]).thenComparingInt(i -> i));
                int[] want = new int[n + 3];
                for (int i = 0; i < n; i++) {
                    want[i] = expected[i];
                }
                want[n] = -1;
                want[n + 1] = -2;
                want[n + 2] = -3;
                assertArrayEquals(want, indexes, "n=" + n + " distinct=" + distinct);
            }
        }
    }
}
