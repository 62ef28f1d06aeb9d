package io.periscope.lab.probe;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.VxlanDevice;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which interface of which host a frame reaches when it leaves an interface: the other end of a
 * veth, or on a bridge the attached interface whose MAC is the frame's destination. Also which
 * VXLAN device of a host receives a UDP port. Built from the plan's segments and the MACs the
 * interfaces really have.
 */
public final class LabWiring {

    /** An interface of a host. */
    public record Port(HostId host, String iface) {
    }

    private final ClusterSetPlan plan;
    private final Map<Port, MacAddress> macs;

    /** @param macs the MAC of every interface, as the kernel reports it */
    public LabWiring(ClusterSetPlan plan, Map<Port, MacAddress> macs) {
        this.plan = plan;
        this.macs = Map.copyOf(macs);
    }

    /**
     * The MACs the plan gives the environment's interfaces (what the lab sets; tests use this). The VXLAN
     * devices have none here: the kernel picks theirs, and only {@link LabInterfaces} reads them.
     */
    public static LabWiring planned(ClusterSetPlan plan) {
        return new LabWiring(plan, plannedMacs(plan));
    }

    /** The MAC of every environment interface, as the plan gives it. */
    public static Map<Port, MacAddress> plannedMacs(ClusterSetPlan plan) {
        Map<Port, MacAddress> macs = new HashMap<>();
        for (HostPlan host : plan.hosts().values()) {
            for (Interface iface : host.interfaces()) {
                macs.put(new Port(host.id(), iface.name()), iface.mac());
            }
        }
        return macs;
    }

    /** The OVN logical switch port a host's interface is bound to, where it is one ({@link OvnPort}). */
    public Optional<OvnPort> ovnPort(Port port) {
        return OvnPort.of(plan, port.host(), port.iface());
    }

    /** Whether {@code node} ({@code cluster/name}) is a logical router of an OVN cluster: a hop with no namespace of its own. */
    public boolean isOvnRouter(String node) {
        String[] parts = node.split("/");
        return parts.length == 2 && plan.ovn(parts[0]).flatMap(t -> t.router(parts[1])).isPresent();
    }

    public Optional<MacAddress> mac(Port port) {
        return Optional.ofNullable(macs.get(port));
    }

    /** Where a frame leaving {@code from} with destination MAC {@code dstMac} arrives; empty if nowhere. */
    public Optional<Port> receiver(Port from, MacAddress dstMac) {
        Optional<Segment> segment = plan.host(from.host())
                .flatMap(h -> h.interfaces().stream().filter(i -> i.name().equals(from.iface())).findFirst())
                .filter(i -> !i.segment().isEmpty())
                .flatMap(i -> plan.segment(i.segment()));
        if (segment.isEmpty()) {
            return Optional.empty();
        }
        List<Segment.Attachment> others = segment.get().attachments().stream()
                .filter(a -> !(a.host().equals(from.host()) && a.interfaceName().equals(from.iface()))).toList();
        return switch (segment.get().kind()) {
            case VETH -> others.stream().findFirst().map(a -> new Port(a.host(), a.interfaceName()));
            case BRIDGE -> others.stream().map(a -> new Port(a.host(), a.interfaceName()))
                    .filter(p -> dstMac.equals(macs.get(p))).findFirst();
        };
    }

    /** The VXLAN device of {@code host} listening on UDP {@code port}. */
    public Optional<String> vxlanDevice(HostId host, int port) {
        return plan.host(host).flatMap(h -> h.submariner().vxlanDevices().stream().filter(d -> d.port() == port).findFirst())
                .map(VxlanDevice::name);
    }

    public boolean isVxlanDevice(HostId host, String iface) {
        return plan.host(host).map(h -> h.submariner().vxlanDevices().stream().anyMatch(d -> d.name().equals(iface))).orElse(false);
    }

    /** The WireGuard device named {@code iface} on {@code host}, if it is one. */
    public Optional<WireGuardDevice> wireGuardDevice(HostId host, String iface) {
        return plan.host(host).flatMap(h -> h.submariner().wireGuardDevices().stream().filter(d -> d.name().equals(iface)).findFirst());
    }

    /** The WireGuard device of {@code host} listening on UDP {@code port}. */
    public Optional<WireGuardDevice> wireGuardDeviceOn(HostId host, int port) {
        return plan.host(host).flatMap(h -> h.submariner().wireGuardDevices().stream().filter(d -> d.listenPort() == port).findFirst());
    }
}
