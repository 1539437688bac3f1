/**
 * Transport security of a cluster: TLS on every SOFABolt connection, node to node and client to node, and the
 * check of every received request against the caller's certificate.
 *
 * <ul>
 *   <li>{@link io.kegdb.raft.security.CertificateFiles} makes the PEM files ({@code kegdb cert});
 *       {@link io.kegdb.raft.security.CertificateRole} tells a node certificate from a client's.</li>
 *   <li>{@link io.kegdb.raft.security.TransportSecurity} is what a node or client sets up once:
 *       {@code ServerChannels} and {@code ClientChannels} put Netty's {@code SslHandler} on the channels
 *       (SOFABolt's {@code EXTENDED_NETTY_CHANNEL_HANDLER}), {@code SslContexts} reloads changed files for new
 *       connections, {@link io.kegdb.raft.security.TlsRaftRpcFactory} reaches the RPC clients SOFAJRaft makes
 *       itself (Raft replication, the CLI service).</li>
 *   <li>On the receiving node, {@link io.kegdb.raft.security.PeerIdentity} (node, client, anonymous) is kept
 *       on each connection and {@code GuardedRpcServer} checks it against {@code AccessPolicy} before any
 *       processor runs; a refusal ({@code Refusal}) changes nothing.</li>
 *   <li>On the calling side, {@code FailureTranslatingClient} turns TLS failures and refusals into an
 *       immediate {@link io.kegdb.raft.ReplicationException} naming the cause.</li>
 * </ul>
 */
package io.kegdb.raft.security;
