package io.periscope.plan.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.Optional;

/**
 * A VXLAN device as Submariner creates it: {@code vx-submariner} (VNI 100, UDP 4800, 240.x/8) inside a
 * cluster, {@code vxlan-tunnel} (VNI 1000, UDP 4500, 241.x/8) between gateways. It has no single
 * remote; where packets go is decided by the FDB (seed 004: multi-endpoint tunnels). It has no fixed
 * MAC either: upstream sets none, so the kernel gives each device a random one, and the peers learn
 * it by ARP, flooded to the all-zero FDB entries.
 *
 * @param local     the outer packets' source address, if fixed; upstream fixes none ({@code SrcAddr} nil), so
 *                  the kernel takes the one routing picks for each destination, and the device receives on
 *                  every address of the host
 * @param underlay  the device it is bound to ({@code dev}), if any; upstream binds none, so the outer packets
 *                  go where the host's routes send them
 * @param address   the device's own address, e.g. 240.18.0.10
 * @param network   the on-link network of that address, e.g. 240.0.0.0/8
 * @param learning  whether the device learns where a peer's MAC is from the frames it receives
 *                  ({@code learning}); upstream's never do ({@code nolearning}), so every frame for a MAC
 *                  no permanent entry names is flooded to each all-zero destination. Periscope turns it on
 *                  where seed 004's several active gateways would make that flood a copy per gateway: a
 *                  gateway's vxlan-tunnel towards such a cluster, a non-gateway node's vx-submariner in one
 *                  (docs/plan.md, the two "... learns where each ... MAC is" rows)
 */
public record VxlanDevice(String name, int vni, int port, Optional<Ipv4Address> local, Optional<String> underlay, int mtu,
                          Ipv4Address address, Ipv4Prefix network, boolean learning) {

    /** A device as upstream creates it: neither {@code local} nor {@code dev}, and {@code nolearning}. */
    public static VxlanDevice unbound(String name, int vni, int port, int mtu, Ipv4Address address, Ipv4Prefix network) {
        return new VxlanDevice(name, vni, port, Optional.empty(), Optional.empty(), mtu, address, network, false);
    }

    /** The same device, learning or not. */
    public VxlanDevice withLearning(boolean on) {
        return new VxlanDevice(name, vni, port, local, underlay, mtu, address, network, on);
    }
}
