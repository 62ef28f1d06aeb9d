package io.periscope.dataplane.ovs;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.Interface;
import io.periscope.plan.ovn.OvsBridge;

import java.util.List;
import java.util.Optional;

/**
 * One OVS bridge a node's Submariner agent keeps: the bridge, its internal port with the port's MAC
 * and MTU, the port's address in the kernel, and the bridge mapping that ties the bridge to a
 * localnet network ({@code submariner_gateway:br-submariner}). What upstream's route agent made in
 * {@code ensureSubmarinerNodeBridge} before v0.16 (docs/lab.md, "Who builds what on an OVN node").
 *
 * @param mac empty leaves the MAC to OVS (a random one for an internal port)
 */
public record NodeBridge(String bridge, String internalPort, Optional<String> mac, int mtu, Ipv4Address address, int prefixLength,
                         String localnet) {

    /**
     * The plan's row for the node, with the MAC and MTU the host's plan gives its internal port (the
     * interface of that name), when it has one.
     */
    public static NodeBridge of(OvsBridge row, List<Interface> hostInterfaces) {
        Optional<Interface> port = hostInterfaces.stream().filter(i -> i.name().equals(row.internalPort())).findFirst();
        return new NodeBridge(row.bridge(), row.internalPort(), port.map(i -> i.mac().toString()),
                port.map(Interface::mtu).orElse(Interface.DEFAULT_MTU), row.address(), row.prefixLength(), row.logicalSwitch());
    }

    /** The plan's rows of {@code node}, each with the host's interface of its internal port. */
    public static List<NodeBridge> forNode(String node, List<OvsBridge> rows, List<Interface> hostInterfaces) {
        return rows.stream().filter(r -> r.node().equals(node)).map(r -> of(r, hostInterfaces)).toList();
    }

    /** The entry of {@code external_ids:ovn-bridge-mappings} that maps the localnet network to the bridge. */
    public String mapping() {
        return localnet + ":" + bridge;
    }

    public String cidr() {
        return address + "/" + prefixLength;
    }
}
