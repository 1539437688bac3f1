/**
 * Ranges (docs/SCALE.md): the key space cut into contiguous ranges, each its own Raft group. Built so far
 * (stage 2, one range): the descriptors and their keys in the meta range ({@link io.kegdb.raft.range.RangeDescriptor},
 * {@link io.kegdb.raft.range.MetaKeys}), the leader's duty to install the initial descriptor and keep the
 * meta range's copy current ({@link io.kegdb.raft.range.DescriptorKeeper}), and the check by which a replica
 * serves a read and applies a write only for its range, generation and bounds
 * ({@link io.kegdb.raft.range.RouteCheck}). Stage 3: the catalog version in ranges without the catalog
 * ({@link io.kegdb.raft.range.CatalogFence}, kept by {@link io.kegdb.raft.range.FenceKeeper}), and splits
 * ({@link io.kegdb.raft.range.SplitCommand}, ids from {@link io.kegdb.raft.range.RangeIds}). The replica's side lives with its state machine in
 * {@code io.kegdb.raft.replication}; this package imports nothing of it.
 */
package io.kegdb.raft.range;
