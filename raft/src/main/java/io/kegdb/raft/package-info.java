/**
 * SOFAJRaft storage on the Bitcask engine: {@link io.kegdb.raft.BitcaskLogStorage} for the Raft log,
 * {@link io.kegdb.raft.BitcaskRaftMetaStorage} for term and vote, and
 * {@link io.kegdb.raft.KegRaftServiceFactory}, which SOFAJRaft picks up by SPI.
 */
package io.kegdb.raft;
