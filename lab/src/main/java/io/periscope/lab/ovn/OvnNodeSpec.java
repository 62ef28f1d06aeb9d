package io.periscope.lab.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

/**
 * One node of a cluster on OVN, as the lab has already built it: its namespace, and the underlay
 * device there that holds the node's address (which the chassis moves onto {@code breth0}, as
 * OVN-Kubernetes' shared gateway mode does).
 *
 * @param name              the node's name: its chassis name (system-id) and its logical switch's name
 * @param namespace         the node's network namespace
 * @param underlayDevice    the device carrying {@code underlayAddress} ({@code eth0} in the lab)
 * @param underlayAddress   the node's address: the Geneve tunnel endpoint ({@code ovn-encap-ip})
 * @param underlayLength    the prefix length of that address on the underlay
 * @param podSubnet         the node's pod subnet: its logical switch's subnet
 * @param gateway           the node switch's router port ({@code rtos-NODE}): the pods' default gateway
 * @param managementAddress the management port's address ({@code ovn-k8s-mp0}, logical port {@code k8s-NODE})
 * @param managementMac     the management port's MAC
 */
public record OvnNodeSpec(String name, String namespace, String underlayDevice, Ipv4Address underlayAddress, int underlayLength,
                          Ipv4Prefix podSubnet, Ipv4Address gateway, Ipv4Address managementAddress, String managementMac) {

    /**
     * A node with OVN-Kubernetes' own choice of addresses: the router port has the subnet's first
     * address, the management port the second, each with OVN-Kubernetes' MAC for it.
     */
    public OvnNodeSpec(String name, String namespace, String underlayDevice, Ipv4Address underlayAddress, int underlayLength,
                       Ipv4Prefix podSubnet) {
        this(name, namespace, underlayDevice, underlayAddress, underlayLength, podSubnet, podSubnet.first().plus(1),
                podSubnet.first().plus(2), OvnClusterSpec.macOf(podSubnet.first().plus(2)));
    }
}
