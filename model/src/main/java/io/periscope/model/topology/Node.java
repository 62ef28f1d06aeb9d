package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * A cluster node. {@code ip} is its own (underlay) address, the one VXLAN tunnels use;
 * {@code cniIp} its address on the CNI network (what the multi-active-gateway SNAT uses).
 */
public record Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp) {

    /** The address other clusters' gateways reach this gateway at: its public IP if it has one. */
    public Ipv4Address endpointIp() {
        return publicIp.orElse(ip);
    }
}
