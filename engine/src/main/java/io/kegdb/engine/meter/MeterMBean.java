package io.kegdb.engine.meter;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * Meters as one JMX MBean (no dependency beyond the JDK): one read-only attribute per counter and gauge,
 * named by the meter name without {@code kegdb.} and with its tags ({@code raft.peer.lag[peer=h:p]}), and two
 * per histogram ({@code ....count}, {@code ....sum}); every value is read when it is asked for. Operations
 * without arguments (a reset) may be added. {@link #register} puts it on the platform MBean server; closing
 * the registration takes it off.
 */
public final class MeterMBean implements DynamicMBean {

    /** An operation without arguments: its name, what it does, and the action. */
    public record Operation(String name, String description, Runnable action) {
    }

    private final String description;
    private final Map<String, DoubleSupplier> attributes = new LinkedHashMap<>();
    private final Map<String, String> attributeHelp = new LinkedHashMap<>();
    private final Map<String, Operation> operations = new LinkedHashMap<>();

    public MeterMBean(String description, List<Meter> meters, List<Operation> operations) {
        this.description = description;
        for (Meter m : meters) {
            String name = attributeName(m);
            if (m.type() == MeterType.HISTOGRAM) {
                Histogram h = m.histogram();
                add(name + ".count", m.description() + " (observations)", h::count);
                add(name + ".sum", m.description() + " (sum, " + unitWord(m) + ")", h::sum);
            } else {
                add(name, m.description() + (m.unit() == MeterUnit.NONE ? "" : " (" + unitWord(m) + ")"), m::read);
            }
        }
        for (Operation op : operations) {
            this.operations.put(op.name(), op);
        }
    }

    /** The attribute name of a meter (of a counter or gauge; a histogram's attributes add {@code .count}/{@code .sum}). */
    public static String attributeName(Meter m) {
        StringBuilder b = new StringBuilder(m.name().substring("kegdb.".length()));
        if (!m.tags().isEmpty()) {
            b.append('[');
            boolean first = true;
            for (Map.Entry<String, String> t : m.tags().entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                b.append(t.getKey()).append('=').append(t.getValue());
            }
            b.append(']');
        }
        return b.toString();
    }

    private static String unitWord(Meter m) {
        return m.unit() == MeterUnit.NONE ? "count" : m.unit().suffix();
    }

    private void add(String name, String help, DoubleSupplier value) {
        if (attributes.putIfAbsent(name, value) != null) {
            throw new IllegalArgumentException("two meters give the attribute " + name);
        }
        attributeHelp.put(name, help);
    }

    /** A registration of an MBean; closing it unregisters the MBean (once). */
    public interface Registration extends AutoCloseable {
        ObjectName name();

        @Override
        void close();
    }

    /**
     * Registers this MBean on the platform MBean server under {@code name}.
     *
     * @throws InstanceAlreadyExistsException if another MBean has that name
     */
    public Registration register(ObjectName name) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        server.registerMBean(this, name);
        return new Registration() {
            private boolean closed;

            @Override
            public ObjectName name() {
                return name;
            }

            @Override
            public synchronized void close() {
                if (closed) {
                    return;
                }
                closed = true;
                try {
                    server.unregisterMBean(name);
                } catch (InstanceNotFoundException e) {
                    // someone else took it off already
                } catch (JMException e) {
                    throw new IllegalStateException("unregistering " + name + " failed: " + e, e);
                }
            }
        };
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        DoubleSupplier value = attributes.get(attribute);
        if (value == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return value.getAsDouble();
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String n : names) {
            DoubleSupplier value = attributes.get(n);
            if (value != null) {
                list.add(new Attribute(n, value.getAsDouble()));
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        Operation op = operations.get(actionName);
        if (op == null || (params != null && params.length > 0)) {
            throw new ReflectionException(new NoSuchMethodException(actionName), "no operation " + actionName
                    + " without arguments");
        }
        op.action().run();
        return null;
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> attrs = new ArrayList<>();
        for (Map.Entry<String, String> a : attributeHelp.entrySet()) {
            attrs.add(new MBeanAttributeInfo(a.getKey(), "double", a.getValue(), true, false, false));
        }
        List<MBeanOperationInfo> ops = new ArrayList<>();
        for (Operation op : operations.values()) {
            ops.add(new MBeanOperationInfo(op.name(), op.description(), new MBeanParameterInfo[0], "void",
                    MBeanOperationInfo.ACTION));
        }
        return new MBeanInfo(MeterMBean.class.getName(), description, attrs.toArray(new MBeanAttributeInfo[0]),
                null, ops.toArray(new MBeanOperationInfo[0]), null);
    }
}
