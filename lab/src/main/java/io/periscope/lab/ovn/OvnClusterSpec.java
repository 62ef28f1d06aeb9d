package io.periscope.lab.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;

/**
 * A cluster whose CNI is OVN-Kubernetes, as the lab builds it: its nodes, the cluster CIDR the node
 * subnets come from, and the join subnet that ties the gateway routers to {@code ovn_cluster_router}
 * (OVN-Kubernetes' default is 100.64.0.0/16).
 */
public record OvnClusterSpec(String name, Ipv4Prefix clusterCidr, Ipv4Prefix joinSubnet, List<OvnNodeSpec> nodes) {

    /**
     * The MTU of pods and management ports: OVN-Kubernetes' default, the underlay's 1500 less 100
     * for the Geneve header (58 bytes with OVN's option, IPv4 outside). ovs-vswitchd drops a packet
     * that its tunnel header makes longer than breth0's MTU, without a word to the sender: with
     * 1500 in the pods, ping gets through and a TCP stream's full-sized segments do not.
     */
    public static final int POD_MTU = 1400;

    public OvnClusterSpec {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("cluster " + name + " has no node to run OVN on");
        }
        for (OvnNodeSpec node : nodes) {
            if (!clusterCidr.contains(node.podSubnet())) {
                throw new IllegalArgumentException("node " + node.name() + "'s pod subnet " + node.podSubnet() + " is outside cluster "
                        + name + "'s CIDR " + clusterCidr);
            }
        }
        if (joinSubnet.size() < nodes.size() + 3) {
            throw new IllegalArgumentException("join subnet " + joinSubnet + " has no room for " + nodes.size() + " gateway routers");
        }
    }

    /** The control-plane node: where the northbound and southbound databases and ovn-northd run (ovnkube-master's place). */
    public OvnNodeSpec controlPlaneNode() {
        return nodes.getFirst();
    }

    /** {@code rtoj-ovn_cluster_router}: the join subnet's first address. */
    public Ipv4Address clusterRouterJoinAddress() {
        return joinSubnet.first().plus(1);
    }

    /** {@code rtoj-GR_NODE} of the {@code index}-th node: the join addresses after the cluster router's. */
    public Ipv4Address gatewayRouterJoinAddress(int index) {
        return joinSubnet.first().plus(2 + index);
    }

    /** OVN-Kubernetes' MAC for a logical port of {@code address}: 0a:58 followed by the address's four bytes. */
    static String macOf(Ipv4Address address) {
        return String.format("0a:58:%02x:%02x:%02x:%02x", address.octet(0), address.octet(1), address.octet(2), address.octet(3));
    }
}
