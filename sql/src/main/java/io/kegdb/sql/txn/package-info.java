/**
 * Internal (not for applications): the transaction overlay, uncommitted writes seen over the store.
 *
 * <p>{@link io.kegdb.sql.txn.ReadView} is what a statement reads; {@link io.kegdb.sql.txn.StoreView} reads the
 * store itself; {@link io.kegdb.sql.txn.Overlay} buffers a transaction's or a statement's writes over another
 * view (read-your-writes) and turns them into one atomic batch; {@code PendingWrites} is its table of buffered
 * writes. Depends on the engine only.
 */
package io.kegdb.sql.txn;
