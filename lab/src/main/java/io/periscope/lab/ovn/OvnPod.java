package io.periscope.lab.ovn;

import io.periscope.model.net.Ipv4Address;

/**
 * A pod attached to OVN: its namespace, the logical switch port it is, and the veth end in its
 * node's namespace that br-int binds to that port.
 */
public record OvnPod(String node, String namespace, String logicalPort, String nodeDevice, Ipv4Address address) {
}
