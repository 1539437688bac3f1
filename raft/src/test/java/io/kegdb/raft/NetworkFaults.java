package io.kegdb.raft;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.impl.ConnectionClosedEventListener;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

/**
 * Network faults of an in-JVM cluster, applied where each node receives requests: a node cut off receives
 * nothing and what it sends (Raft requests name their sender) reaches no one; a paused node's requests,
 * in and out, are held until it resumes and then delivered late, as a stopped process's would be.
 */
public final class NetworkFaults {

    private final Set<String> cutOff = ConcurrentHashMap.newKeySet();
    private final Set<String> paused = ConcurrentHashMap.newKeySet();
    private final List<Runnable> held = new ArrayList<>();

    /** Wraps the RPC server of the node at {@code self} ({@code host:port}). */
    UnaryOperator<RpcServer> serverOf(String self) {
        return real -> new FilteringServer(real, self);
    }

    public void cutOff(String node) {
        cutOff.add(node);
    }

    public void reconnect(String node) {
        cutOff.remove(node);
    }

    public void pause(String node) {
        paused.add(node);
    }

    /** Ends the pause and delivers what was held, on this thread. */
    public void resume(String node) {
        List<Runnable> late;
        synchronized (held) {
            paused.remove(node);
            late = new ArrayList<>(held);
            held.clear();
        }
        late.forEach(Runnable::run);
    }

    private boolean hold(Runnable delivery, String self, String sender) {
        synchronized (held) {
            if (paused.contains(self) || (sender != null && paused.contains(sender))) {
                held.add(delivery);
                return true;
            }
            return false;
        }
    }

    /** The {@code host:port} that sent a Raft request (its {@code server_id}), or null for other requests. */
    private static String sender(Object request) {
        if (request instanceof Message m) {
            Descriptors.FieldDescriptor f = m.getDescriptorForType().findFieldByName("server_id");
            if (f != null && m.hasField(f)) {
                PeerId p = PeerId.parsePeer((String) m.getField(f));
                return p == null ? null : p.getEndpoint().toString();
            }
        }
        return null;
    }

    private final class FilteringServer implements RpcServer {
        private final RpcServer real;
        private final String self;

        FilteringServer(RpcServer real, String self) {
            this.real = real;
            this.self = self;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void registerProcessor(RpcProcessor<?> processor) {
            RpcProcessor<Object> p = (RpcProcessor<Object>) processor;
            real.registerProcessor(new RpcProcessor<Object>() {
                @Override
                public void handleRequest(RpcContext context, Object request) {
                    String sender = sender(request);
                    if (cutOff.contains(self) || (sender != null && cutOff.contains(sender))) {
                        return; // lost: the sender waits for its timeout
                    }
                    if (!hold(() -> p.handleRequest(context, request), self, sender)) {
                        p.handleRequest(context, request);
                    }
                }

                @Override
                public String interest() {
                    return p.interest();
                }

                @Override
                public Executor executor() {
                    return p.executor();
                }

                @Override
                public ExecutorSelector executorSelector() {
                    return p.executorSelector();
                }
            });
        }

        @Override
        public void registerConnectionClosedEventListener(ConnectionClosedEventListener listener) {
            real.registerConnectionClosedEventListener(listener);
        }

        @Override
        public int boundPort() {
            return real.boundPort();
        }

        @Override
        public boolean isStarted() {
            return real.isStarted();
        }

        @Override
        public boolean init(Void opts) {
            return real.init(opts);
        }

        @Override
        public void shutdown() {
            real.shutdown();
        }
    }
}
