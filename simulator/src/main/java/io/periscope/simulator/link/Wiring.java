package io.periscope.simulator.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /**
     * A segment as its attachments see it: for a veth the peer each end reaches, for a bridge the
     * owners of its addresses (sorted, for a binary search) and where a frame to each one arrives.
     */
    /** An interface's place on its segment, to send through without looking it up each time. */
    public interface Link {
    }

    private record Attached(Segment segment, Port[] ports, int[] addresses, Delivery.Reached[] owners) implements Link {

        /** For a veth: where a frame from {@code host}'s {@code iface} arrives, or null without a peer. */
        Delivery.Reached peerOf(int host, String iface) {
            for (Delivery.Reached peer : owners) {
                if (peer.port().host() != host || !peer.port().iface().equals(iface)) {
                    return peer;
                }
            }
            return null;
        }
    }

    /** By host index, then interface name: every frame sent asks, so no composite keys to build. */
    private final List<Map<String, Attached>> attachments = new ArrayList<>();

    /** @param hostIndex the index of every host of the plan */
    public Wiring(List<Segment> segments, Map<HostId, Integer> hostIndex, Map<HostId, HostPlan> hosts) {
        for (int i = 0; i < hostIndex.size(); i++) {
            attachments.add(new HashMap<>());
        }
        for (Segment segment : segments) {
            TreeMap<Integer, Port> owners = new TreeMap<>();
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
            int[] addresses;
            Delivery.Reached[] reached;
            if (segment.kind() == Segment.SegmentKind.VETH) {
                // A veth has no ARP to ask: each end reaches the other, whatever the next hop.
                addresses = new int[0];
                reached = java.util.Arrays.stream(ports).map(Delivery.Reached::new).toArray(Delivery.Reached[]::new);
            } else {
                // TreeMap orders the signed keys, which is the order Arrays.binarySearch needs.
                addresses = owners.keySet().stream().mapToInt(Integer::intValue).toArray();
                reached = owners.values().stream().map(Delivery.Reached::new).toArray(Delivery.Reached[]::new);
            }
            Attached attached = new Attached(segment, ports, addresses, reached);
            for (Port port : ports) {
                attachments.get(port.host()).put(port.iface(), attached);
            }
        }
    }

    /**
     * Where every frame out of {@code host}'s {@code iface} arrives whatever its next hop: the peer of
     * a veth; null for a bridge (ARP decides) or an interface on no segment.
     */
    public Delivery.Reached peer(int host, String iface) {
        Attached attached = attachments.get(host).get(iface);
        return attached == null || attached.segment().kind() != Segment.SegmentKind.VETH ? null : attached.peerOf(host, iface);
    }

    /** The segment {@code host}'s {@code iface} is attached to, or null when it is attached to none. */
    public Link link(int host, String iface) {
        return attachments.get(host).get(iface);
    }

    /** Where a frame from {@code host}'s {@code iface} for {@code nextHop} goes. */
    public Delivery send(int host, String hostName, String iface, Ipv4Address nextHop) {
        return send(link(host, iface), host, hostName, iface, nextHop);
    }

    /** As {@link #send(int, String, String, Ipv4Address)}, with the interface's {@link #link} already known. */
    public Delivery send(Link link, int host, String hostName, String iface, Ipv4Address nextHop) {
        Attached attached = (Attached) link;
        if (attached == null) {
            return new Delivery.Failed(hostName + " " + iface + " is not attached to any segment");
        }
        if (attached.segment().kind() == Segment.SegmentKind.VETH) {
            Delivery.Reached peer = attached.peerOf(host, iface);
            if (peer != null) {
                return peer;
            }
            return new Delivery.Failed("veth " + attached.segment().name() + " of " + hostName + " " + iface + " has no peer");
        }
        int at = Arrays.binarySearch(attached.addresses(), nextHop.bits());
        Delivery.Reached owner = at < 0 ? null : attached.owners()[at];
        if (owner == null || owner.port().host() == host && owner.port().iface().equals(iface)) {
            return new Delivery.Failed("no host answers ARP for " + nextHop + " on segment " + attached.segment().name()
                    + " (" + hostName + " " + iface + ")");
        }
        return owner;
    }
}
