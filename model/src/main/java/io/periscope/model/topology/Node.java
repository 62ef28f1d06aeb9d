package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * A cluster node. {@code ip} is its own (underlay) address, the one VXLAN tunnels use;
 * {@code cniIp} its address on the CNI network (what the multi-active-gateway SNAT uses);
 * {@code link} its default interface's name and MTU where the file states them.
 */
public record Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp, NodeLink link) {

    public Node {
        java.util.Objects.requireNonNull(link, "link");
    }

    /** A node whose interface the file does not describe (the lab's {@code eth0}, MTU 1500). */
    public Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp) {
        this(name, ip, cniIp, gateway, publicIp, NodeLink.UNSTATED);
    }

    public Node withLink(NodeLink newLink) {
        return new Node(name, ip, cniIp, gateway, publicIp, newLink);
    }

    /** The address other clusters' gateways reach this gateway at: its public IP if it has one. */
    public Ipv4Address endpointIp() {
        return publicIp.orElse(ip);
    }
}
