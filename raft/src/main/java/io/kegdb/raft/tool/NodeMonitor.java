package io.kegdb.raft.tool;

import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterMBean;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.ObjectName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a running node shows of itself, made once per node: its meters ({@link NodeMeters}, the members polled
 * by a {@link MemberPoller}), its {@link NodeHealth}, and the meters as a JMX MBean
 * {@code io.kegdb:type=RaftNode,group="G",peer="HOST:PORT"} on the platform MBean server while it runs.
 * {@link NodeHttpServer} serves the same meters and health. Closing it takes the MBean off and stops the poll.
 * {@link NodeMain} makes one for the node it runs, and the JDBC driver one for an embedded cluster member.
 */
public final class NodeMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeMonitor.class);

    /** Every how many milliseconds the members are asked for their status (for the peers' lag). */
    static final long MEMBER_POLL_MS = 2000;

    private final MemberPoller poller;
    private final List<Meter> meters;
    private final Map<String, String> labels;
    private final NodeHealth health;
    /** The MBean, or null if JMX refused it. */
    private final MeterMBean.Registration mbean;

    private NodeMonitor(MemberPoller poller, List<Meter> meters, Map<String, String> labels, NodeHealth health,
                        MeterMBean.Registration mbean) {
        this.poller = poller;
        this.meters = meters;
        this.labels = labels;
        this.health = health;
        this.mbean = mbean;
    }

    /**
     * Starts watching {@code node} (started with {@code options}) and registers its MBean. If JMX refuses the
     * MBean (another watcher of this node in this process has its name, or a security manager says no), a
     * warning is logged and the node is watched without it: its meters and health are the same.
     */
    public static NodeMonitor start(RaftNode node, RaftNodeOptions options) {
        MemberPoller poller = new MemberPoller(node, MEMBER_POLL_MS);
        try {
            List<String> peers = new ArrayList<>();
            for (PeerId p : PeerList.parse(options.peers()).getPeers()) {
                peers.add(p.toString());
            }
            String self = node.status().node();
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("group", options.group());
            labels.put("node", self);
            List<Meter> meters = NodeMeters.of(node, options.dir(), peers, poller);
            MeterMBean.Registration mbean = register(new MeterMBean("KegDB Raft node " + self + " of group "
                    + options.group(), meters, List.of()), options.group(), self);
            return new NodeMonitor(poller, meters, Collections.unmodifiableMap(labels), new NodeHealth(node::status), mbean);
        } catch (RuntimeException e) {
            poller.close();
            throw e;
        }
    }

    /** Registers {@code bean} under the node's name; null, with one warning logged, if JMX refuses it. */
    private static MeterMBean.Registration register(MeterMBean bean, String group, String self) {
        try {
            return bean.register(objectName(group, self));
        } catch (JMException | SecurityException e) {
            LOG.warn("raft node {} of group {} has no JMX MBean: {}", self, group, e.toString());
            return null;
        }
    }

    /** {@code io.kegdb:type=RaftNode,group="G",peer="HOST:PORT"}. */
    static ObjectName objectName(String group, String peer) throws JMException {
        return new ObjectName("io.kegdb:type=RaftNode,group=" + ObjectName.quote(group) + ",peer="
                + ObjectName.quote(peer));
    }

    List<Meter> meters() {
        return meters;
    }

    /** The labels every sample of the node carries: {@code group} and {@code node}. */
    Map<String, String> labels() {
        return labels;
    }

    NodeHealth health() {
        return health;
    }

    /** The name its MBean has; null if it has none. */
    ObjectName mbeanName() {
        return mbean == null ? null : mbean.name();
    }

    @Override
    public void close() {
        try {
            if (mbean != null) {
                mbean.close();
            }
        } finally {
            poller.close();
        }
    }
}
