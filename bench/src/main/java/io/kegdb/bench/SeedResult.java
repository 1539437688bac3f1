package io.kegdb.bench;

/**
 * What one engine did on one workload.
 *
 * @param putNanos          time of the N puts
 * @param getNanos          time of the N random gets
 * @param heapBytes         Java heap in use after the load minus before the store was opened (both after GC)
 * @param directBytes       direct-buffer memory after the load minus before
 * @param reportedMemoryBytes what the store reports holding in memory after the load, -1 when it reports
 *                          none (see {@link StoreUnderTest#reportedMemoryBytes()})
 * @param diskBytes         size of the store's files after close
 * @param reopenNanos       time to open the closed store again
 */
record SeedResult(Engine engine, Workload workload, long putNanos, long getNanos, long heapBytes,
                  long directBytes, long reportedMemoryBytes, long diskBytes, long reopenNanos) {

    double putOpsPerSecond() {
        return workload.keys() / (putNanos / 1e9);
    }

    double getOpsPerSecond() {
        return workload.keys() / (getNanos / 1e9);
    }

    /** Heap plus direct memory the store holds after the load, per key: the table's memory per key. */
    double memoryBytesPerKey() {
        return (double) (heapBytes + directBytes) / workload.keys();
    }
}
