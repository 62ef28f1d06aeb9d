package io.periscope.lab.layout;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.ovn.OvnTopology;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a lab is made of, worked out from the plan before anything is created: a namespace per host,
 * a switch namespace per BRIDGE segment, and the veth pairs between them. The ports of OVN logical
 * switches are left unwired: OVN's datapath plugs them ({@link LabBatches#ovnInterfaces}). Pure, so that {@code up}
 * can record exactly what it is about to create and {@code down} can remove exactly that.
 */
public record LabLayout(LabNames names, List<HostNamespace> hosts, List<SwitchNamespace> switches, List<VethPair> veths) {

    public LabLayout {
        hosts = List.copyOf(hosts);
        switches = List.copyOf(switches);
        veths = List.copyOf(veths);
    }

    /** @throws IllegalArgumentException when the plan wires an interface to a segment it does not describe */
    public static LabLayout of(ClusterSetPlan plan) {
        LabNames names = LabNames.of(plan.clusterSet().name());
        Set<String> taken = new HashSet<>();
        Map<HostId, HostNamespace> hosts = new LinkedHashMap<>();
        for (Map.Entry<HostId, HostPlan> entry : plan.hosts().entrySet()) {
            HostId id = entry.getKey();
            String namespace = names.unique(names.host(id), id.toString(), taken);
            taken.add(namespace);
            hosts.put(id, new HostNamespace(id, namespace, entry.getValue()));
            for (Interface iface : entry.getValue().interfaces()) {
                if (iface.name().length() > LabNames.MAX_INTERFACE_NAME) {
                    throw new IllegalArgumentException(id + ": interface name '" + iface.name() + "' is longer than "
                            + LabNames.MAX_INTERFACE_NAME + " characters");
                }
                if (!iface.segment().isEmpty() && plan.segment(iface.segment()).isEmpty()) {
                    throw new IllegalArgumentException(id + ": interface " + iface.name() + " is plugged into segment '"
                            + iface.segment() + "', which the plan does not describe");
                }
            }
        }
        List<SwitchNamespace> switches = new ArrayList<>();
        List<VethPair> veths = new ArrayList<>();
        for (Segment segment : plan.segments()) {
            switch (segment.kind()) {
                case VETH -> {
                    if (segment.attachments().size() != 2) {
                        throw new IllegalArgumentException("veth segment " + segment.name() + " has "
                                + segment.attachments().size() + " attachments; a veth pair has exactly two");
                    }
                    veths.add(new VethPair(hostEnd(hosts, segment.attachments().get(0)), hostEnd(hosts, segment.attachments().get(1))));
                }
                // An OVN logical switch is OVN's to build (OvnCluster): its ports are left unwired here.
                case BRIDGE -> {
                    if (OvnTopology.isSegment(segment.name())) {
                        continue;
                    }
                    String namespace = names.unique(names.switchFor(segment.name()), "segment " + segment.name(), taken);
                    taken.add(namespace);
                    Set<String> portNames = new HashSet<>(Set.of(SwitchNamespace.BRIDGE));
                    List<SwitchPort> ports = new ArrayList<>();
                    int largestMtu = segment.attachments().stream().mapToInt(a -> interfaceOf(hosts, a).mtu()).max().orElse(Interface.DEFAULT_MTU);
                    for (Segment.Attachment attachment : segment.attachments()) {
                        SwitchPort port = new SwitchPort(LabNames.interfaceName(attachment.host().name(), portNames),
                                attachment.host(), attachment.interfaceName(), largestMtu);
                        ports.add(port);
                        veths.add(new VethPair(hostEnd(hosts, attachment), new VethEnd(namespace, port.name(), Optional.empty())));
                    }
                    switches.add(new SwitchNamespace(segment.name(), namespace, ports));
                }
            }
        }
        return new LabLayout(names, List.copyOf(hosts.values()), switches, veths);
    }

    private static VethEnd hostEnd(Map<HostId, HostNamespace> hosts, Segment.Attachment attachment) {
        Interface iface = interfaceOf(hosts, attachment);
        return new VethEnd(hosts.get(attachment.host()).namespace(), iface.name(), Optional.of(iface.mac()));
    }

    private static Interface interfaceOf(Map<HostId, HostNamespace> hosts, Segment.Attachment attachment) {
        HostNamespace host = hosts.get(attachment.host());
        if (host == null) {
            throw new IllegalArgumentException("a segment attaches " + attachment.host() + ", which the plan has no host for");
        }
        return host.plan().interfaces().stream().filter(i -> i.name().equals(attachment.interfaceName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(attachment.host() + " has no interface "
                        + attachment.interfaceName() + " for its segment"));
    }

    /** Every namespace the lab creates: hosts first, then switches. */
    public List<String> namespaces() {
        List<String> all = new ArrayList<>();
        hosts.forEach(h -> all.add(h.namespace()));
        switches.forEach(s -> all.add(s.namespace()));
        return all;
    }

    public Optional<HostNamespace> host(HostId id) {
        return hosts.stream().filter(h -> h.host().equals(id)).findFirst();
    }

    public HostNamespace requireHost(HostId id) {
        return host(id).orElseThrow(() -> new IllegalArgumentException("the lab has no host " + id));
    }

    public List<HostNamespace> nodes() {
        return hosts.stream().filter(HostNamespace::isNode).toList();
    }
}
