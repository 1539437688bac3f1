package io.kegdb.engine;

/**
 * Sorts an {@code int[]} of indexes with a comparator over the indexes: a bottom-up merge sort, so sorting a
 * segment's million records costs two {@code int} arrays rather than a million boxed {@code Integer}s.
 */
final class IndexSort {

    /** Compares the things two indexes name. */
    interface Order {
        int compare(int a, int b);
    }

    private IndexSort() {
    }

    /** Sorts {@code indexes[0, n)} by {@code order}; equal elements keep their relative order. */
    static void sort(int[] indexes, int n, Order order) {
        int[] from = indexes;
        int[] to = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    to[k++] = order.compare(from[j], from[i]) < 0 ? from[j++] : from[i++];
                }
                while (i < mid) {
                    to[k++] = from[i++];
                }
                while (j < hi) {
                    to[k++] = from[j++];
                }
            }
            int[] t = from;
            from = to;
            to = t;
        }
        if (from != indexes) {
            System.arraycopy(from, 0, indexes, 0, n);
        }
    }
}
