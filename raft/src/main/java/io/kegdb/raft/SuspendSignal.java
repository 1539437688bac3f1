package io.kegdb.raft;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Keeps SIGUSR2 with the JVM. HotSpot on Linux suspends threads with SIGUSR2 to sample their stacks (JDK
 * Flight Recorder, and profilers that ask it to). SOFAJRaft's node class takes the signal when it loads, for
 * its describe dumps: then every sample the recorder takes starts a Java thread that writes three
 * {@code node_describe/node_metrics/thread_pool_metrics.log.<time>} files into the working directory, and the
 * sample itself fails. A node under a continuous recording wrote files many times a second and a profile of
 * it saw almost none of its threads.
 *
 * <p>So before the node class loads, this reads the JVM's own handler (by setting a placeholder and putting
 * the JVM's back at once), lets the class load, and gives the JVM its handler back. SOFAJRaft's dump on
 * {@code kill -USR2} is gone with it: a node's meters are on {@code /metrics} and JMX instead. Where the JVM
 * does not use the signal (another suspend signal, no {@code sun.misc.Signal}), nothing is changed.
 */
final class SuspendSignal {

    private static final Logger LOG = LoggerFactory.getLogger(SuspendSignal.class);
    private static final String NODE_CLASS = "com.alipay.sofa.jraft.core.NodeImpl";

    private SuspendSignal() {
    }

    /** Loads SOFAJRaft's node class with SIGUSR2 left to the JVM; idempotent (the class loads once). */
    static void loadNodeClass() {
        ClassLoader loader = SuspendSignal.class.getClassLoader();
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object usr2 = signalClass.getConstructor(String.class).newInstance("USR2");
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object placeholder = Proxy.newProxyInstance(loader, new Class<?>[]{handlerClass},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "placeholder";
                        default -> null; // handle: a signal in the instant before the JVM's handler is back
                    });
            Object jvm = handle.invoke(null, usr2, placeholder);
            handle.invoke(null, usr2, jvm);
            boolean jvmHandler = jvm != handlerClass.getField("SIG_DFL").get(null)
                    && jvm != handlerClass.getField("SIG_IGN").get(null);
            Class.forName(NODE_CLASS, true, loader);
            if (jvmHandler) {
                handle.invoke(null, usr2, jvm);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("SIGUSR2 left as SOFAJRaft sets it: {}", e.toString());
            try {
                Class.forName(NODE_CLASS, true, loader);
            } catch (ClassNotFoundException missing) {
                throw new IllegalStateException(missing);
            }
        }
    }
}
