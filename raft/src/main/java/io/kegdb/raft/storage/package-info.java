/**
 * SOFAJRaft storage on the Bitcask engine: {@link io.kegdb.raft.storage.BitcaskLogStorage} for the Raft log,
 * {@link io.kegdb.raft.storage.BitcaskRaftMetaStorage} for term and vote, and
 * {@link io.kegdb.raft.storage.KegRaftServiceFactory}, which SOFAJRaft picks up by SPI. The log's key layout
 * is {@link io.kegdb.raft.storage.LogKeys}; entries below a truncated prefix are deleted in the background by
 * {@link io.kegdb.raft.storage.PrefixReclaimer}. Usable by any SOFAJRaft node; depends on nothing else of
 * {@code io.kegdb.raft}.
 */
package io.kegdb.raft.storage;
