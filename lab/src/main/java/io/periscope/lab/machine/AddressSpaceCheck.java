package io.periscope.lab.machine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.link.VxlanDevice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses a lab whose addresses the machine itself uses. The lab never links into the machine's
 * namespace, so nothing would leak; but a person reading captures or typing {@code ping} in the
 * wrong namespace would be misled, and a later change that did link the two would break the
 * machine's own network. So overlapping topologies are refused, with the field and the machine's
 * interface or route named.
 */
public final class AddressSpaceCheck {

    private AddressSpaceCheck() {
    }

    /** Every address and range the topology and its plan put on an interface or in a route. */
    public static List<TopologyAddress> addressesOf(ClusterSetPlan plan) {
        ClusterSet set = plan.clusterSet();
        Map<String, TopologyAddress> all = new LinkedHashMap<>();
        if (set.globalnet().enabled()) {
            add(all, set.globalnet().cidr(), "globalnet.cidr");
        }
        for (int c = 0; c < set.clusters().size(); c++) {
            Cluster cluster = set.clusters().get(c);
            String at = "clusters[" + c + "] (" + cluster.name() + ")";
            for (int i = 0; i < cluster.podCidrs().size(); i++) {
                add(all, cluster.podCidrs().get(i), at + ".podCIDRs[" + i + "]");
            }
            for (int i = 0; i < cluster.serviceCidrs().size(); i++) {
                add(all, cluster.serviceCidrs().get(i), at + ".serviceCIDRs[" + i + "]");
            }
            cluster.globalCidr().ifPresent(g -> add(all, g, at + ".globalCIDR"));
            for (int n = 0; n < cluster.nodes().size(); n++) {
                Node node = cluster.nodes().get(n);
                String nodeAt = at + ".nodes[" + n + "] (" + node.name() + ")";
                add(all, Ipv4Prefix.host(node.ip()), nodeAt + ".ip");
                add(all, Ipv4Prefix.host(node.cniIp()), nodeAt + ".cniIP");
                node.publicIp().ifPresent(p -> add(all, Ipv4Prefix.host(p), nodeAt + ".publicIP"));
            }
            for (int p = 0; p < cluster.pods().size(); p++) {
                Pod pod = cluster.pods().get(p);
                add(all, Ipv4Prefix.host(pod.ip()), at + ".pods[" + p + "] (" + pod.name() + ").ip");
            }
            for (int s = 0; s < cluster.services().size(); s++) {
                Service service = cluster.services().get(s);
                int index = s;
                service.clusterIp().ifPresent(ip -> add(all, Ipv4Prefix.host(ip), at + ".services[" + index + "] (" + service.name() + ").clusterIP"));
            }
        }
        // The tunnels' own networks (240.0.0.0/8, 241.0.0.0/8) come from the plan, not the file.
        for (HostPlan host : plan.hosts().values()) {
            for (Interface iface : host.interfaces()) {
                for (Ipv4Address address : iface.addresses()) {
                    add(all, Ipv4Prefix.host(address), host.id() + " interface " + iface.name());
                }
            }
            for (VxlanDevice device : host.submariner().vxlanDevices()) {
                add(all, device.network(), host.id() + " " + device.name() + " network");
            }
        }
        return List.copyOf(all.values());
    }

    private static void add(Map<String, TopologyAddress> all, Ipv4Prefix prefix, String field) {
        all.putIfAbsent(prefix.toString(), new TopologyAddress(prefix, field));
    }

    public static List<AddressConflict> conflicts(ClusterSetPlan plan, MachineNetwork machine) {
        List<AddressConflict> conflicts = new ArrayList<>();
        for (TopologyAddress address : addressesOf(plan)) {
            for (MachinePrefix used : machine.prefixes()) {
                if (address.prefix().overlaps(used.prefix())) {
                    conflicts.add(new AddressConflict(address, used));
                }
            }
        }
        return conflicts;
    }
}
