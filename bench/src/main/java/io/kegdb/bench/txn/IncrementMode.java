package io.kegdb.bench.txn;

/** How a worker increments a counter. */
enum IncrementMode {
    /** One autocommitted {@code UPDATE CTR SET V = V + 1 WHERE K = ?}. */
    AUTOCOMMIT("autocommit UPDATE v = v + 1"),
    /** A SERIALIZABLE transaction: {@code SELECT V}, then {@code UPDATE V = read + 1}, commit; conflicts retried. */
    TRANSACTION("transaction SELECT, UPDATE v = read + 1");

    final String label;

    IncrementMode(String label) {
        this.label = label;
    }
}
