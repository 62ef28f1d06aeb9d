package io.periscope.simulator.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Layer 2 between hosts: which attachment a frame sent out of an interface reaches. On a veth pair
 * that is the peer whatever the next hop; on a bridge it is the attachment whose host has the
 * next-hop address on the attached interface, which is what ARP finds out.
 */
public final class Wiring {

    /** An interface of a host, by host index. */
    public record Port(int host, String iface) {
    }

    /** What sending out of an interface to a next hop leads to. */
    public sealed interface Delivery {
        record Reached(Port port) implements Delivery {
        }

        record Failed(String reason) implements Delivery {
        }
    }

    private record Attached(Segment segment, Map<Integer, Port> owners, Port[] ports) {
    }

    private final Map<Port, Attached> attachments = new HashMap<>();

    /** @param hostIndex the index of every host of the plan */
    public Wiring(List<Segment> segments, Map<HostId, Integer> hostIndex, Map<HostId, HostPlan> hosts) {
        for (Segment segment : segments) {
            Map<Integer, Port> owners = new HashMap<>();
            Port[] ports = new Port[segment.attachments().size()];
            int i = 0;
            for (Segment.Attachment a : segment.attachments()) {
                Integer index = hostIndex.get(a.host());
                if (index == null) {
                    throw new IllegalArgumentException("segment " + segment.name() + " attaches " + a.host()
                            + ", which is not a host of the plan");
                }
                Port port = new Port(index, a.interfaceName());
                ports[i++] = port;
                Interface iface = hosts.get(a.host()).interfaces().stream()
                        .filter(x -> x.name().equals(a.interfaceName())).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("segment " + segment.name() + " attaches "
                                + a.host() + " " + a.interfaceName() + ", but that host has no such interface"));
                for (Ipv4Address address : iface.addresses()) {
                    owners.putIfAbsent(address.bits(), port);
                }
            }
            Attached attached = new Attached(segment, owners, ports);
            for (Port port : ports) {
                attachments.put(port, attached);
            }
        }
    }

    /** Where a frame from {@code host}'s {@code iface} for {@code nextHop} goes. */
    public Delivery send(int host, String hostName, String iface, Ipv4Address nextHop) {
        Port from = new Port(host, iface);
        Attached attached = attachments.get(from);
        if (attached == null) {
            return new Delivery.Failed(hostName + " " + iface + " is not attached to any segment");
        }
        if (attached.segment().kind() == Segment.SegmentKind.VETH) {
            for (Port port : attached.ports()) {
                if (!port.equals(from)) {
                    return new Delivery.Reached(port);
                }
            }
            return new Delivery.Failed("veth " + attached.segment().name() + " of " + hostName + " " + iface + " has no peer");
        }
        Port owner = attached.owners().get(nextHop.bits());
        if (owner == null || owner.equals(from)) {
            return new Delivery.Failed("no host answers ARP for " + nextHop + " on segment " + attached.segment().name()
                    + " (" + hostName + " " + iface + ")");
        }
        return new Delivery.Reached(owner);
    }
}
