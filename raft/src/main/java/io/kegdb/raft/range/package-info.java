/**
 * Ranges (docs/SCALE.md): the key space cut into contiguous ranges, each its own Raft group. So far the
 * descriptors and their keys in the meta range: {@link io.kegdb.raft.range.RangeDescriptor} (id, bounds,
 * generation, replica version, replicas, and its stored form) and {@link io.kegdb.raft.range.MetaKeys}
 * (where a descriptor is stored, and the key a lookup of "which range holds this key" starts from). Nothing
 * routes by them yet.
 */
package io.kegdb.raft.range;
