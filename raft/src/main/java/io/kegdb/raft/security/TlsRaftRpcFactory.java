package io.kegdb.raft.security;

import com.alipay.remoting.ExtendedNettyChannelHandler;
import com.alipay.remoting.config.BoltGenericOption;
import com.alipay.sofa.jraft.option.RpcOptions;
import com.alipay.sofa.jraft.rpc.RpcClient;
import com.alipay.sofa.jraft.rpc.impl.BoltRaftRpcFactory;
import com.alipay.sofa.jraft.rpc.impl.BoltRpcClient;
import com.alipay.sofa.jraft.util.SPI;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * SOFAJRaft's Bolt RPC factory (registered by SPI, ahead of the stock one) that gives TLS to the RPC clients
 * SOFAJRaft creates itself: a node's Raft replication client and the CLI service's client are made from
 * the {@link RpcOptions} they are initialised with (a node's {@code NodeOptions}, a {@code CliOptions}); options
 * {@link #register registered} here give the client they make {@link ClientChannels} before it connects
 * anywhere. Unregistered options give the stock plain-text client.
 */
@SPI(priority = 100)
public final class TlsRaftRpcFactory extends BoltRaftRpcFactory {

    private static final Map<RpcOptions, ExtendedNettyChannelHandler> CLIENTS =
            Collections.synchronizedMap(new WeakHashMap<>());

    /** Clients later made from {@code options} open their connections through {@code handlers}. */
    static void register(RpcOptions options, ExtendedNettyChannelHandler handlers) {
        CLIENTS.put(options, handlers);
    }

    @Override
    public ConfigHelper<RpcClient> defaultJRaftClientConfigHelper(RpcOptions options) {
        ExtendedNettyChannelHandler handlers = options == null ? null : CLIENTS.get(options);
        if (handlers == null) {
            return null;
        }
        return client -> ((BoltRpcClient) client).getRpcClient()
                .option(BoltGenericOption.EXTENDED_NETTY_CHANNEL_HANDLER, handlers);
    }
}
