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
 */
public record OvnNodeSpec(String name, String namespace, String underlayDevice, Ipv4Address underlayAddress, int underlayLength,
                          Ipv4Prefix podSubnet) {

    /** The node switch's router port ({@code rtos-NODE}): the pods' default gateway, the first address of the subnet. */
    public Ipv4Address gateway() {
        return podSubnet.first().plus(1);
    }

    /** The management port's address ({@code ovn-k8s-mp0}, logical port {@code k8s-NODE}): the subnet's second address. */
    public Ipv4Address managementAddress() {
        return podSubnet.first().plus(2);
    }
}
