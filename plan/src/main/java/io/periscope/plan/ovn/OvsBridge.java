package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;

/**
 * An OVS bridge of a node with its internal port, mapped to a localnet port of a logical switch
 * (as Submariner's route agent makes {@code br-submariner} with {@code ovn-k8s-sub0}). Only where
 * the switch's router is bound does the localnet port carry traffic.
 */
public record OvsBridge(String node, String bridge, String internalPort, Ipv4Address address, int prefixLength, String logicalSwitch) {
}
