package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.simulator.routing.RoutingPolicy;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The receiving end of a cable: a datagram that came through INPUT to the host's socket for its port
 * is handed to the cable's device, which checks that it is meant for it (VXLAN's VNI and MAC,
 * WireGuard's peer key and allowed IPs, IPsec's SA and inbound policy) and takes the inner packet out.
 * It records the step and says where the inner packet enters the host ({@link CableEntry}); the walker
 * sends it through the stack again. {@link Encapsulator} is the sending end.
 */
final class Decapsulator {

    private final CompiledNetwork net;

    Decapsulator(CompiledNetwork net) {
        this.net = net;
    }

    /** What becomes of the datagram {@code v} carries ({@code v.tunnel} is its payload). */
    CableEntry entry(Visit v) {
        return switch (v.tunnel) {
            case Tunnel.Vxlan vxlan -> vxlan(v, vxlan);
            case Tunnel.WireGuard wireGuard -> wireGuard(v, wireGuard);
            case Tunnel.Esp esp -> esp(v, esp);
        };
    }

    /** The VXLAN device bound to the datagram's port and VNI keeps the frame when it is addressed to its MAC. */
    private CableEntry vxlan(Visit v, Tunnel.Vxlan tunnel) {
        Packet outer = v.packet;
        VxlanDevice device = net.vxlan.receiver(v.host.index, outer.dport(), tunnel.vni());
        if (device == null) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " has no VXLAN device for UDP port " + outer.dport()
                    + " and VNI " + tunnel.vni());
        }
        if (!net.vxlan.mac(v.host.index, device).equals(tunnel.mac())) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " " + device.name() + " discards the frame for "
                    + tunnel.mac());
        }
        v.step(new Step.Decap(Encapsulation.VXLAN, device.name(), OptionalInt.of(tunnel.vni()), outer.dport(), outer.src(), outer.dst(),
                arrivedBy(v), "", false, tunnel.inner()));
        return new CableEntry.Unwrapped(device.name(), tunnel);
    }

    /**
     * The device listening on the datagram's port decrypts it if the sender's key is one of its peers',
     * then keeps the inner packet only if its source is among that peer's allowed IPs.
     */
    private CableEntry wireGuard(Visit v, Tunnel.WireGuard tunnel) {
        Packet outer = v.packet;
        WireGuardDevice device = net.wireGuard.receiver(v.host.index, outer.dport());
        if (device == null) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " has no WireGuard device listening on UDP port "
                    + outer.dport());
        }
        Optional<WireGuardPeer> known = device.peerWithKey(tunnel.senderKey());
        if (known.isEmpty()) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " " + device.name() + " has no peer with key "
                    + tunnel.senderKey() + ": the handshake from " + outer.src() + " fails");
        }
        WireGuardPeer peer = known.get();
        if (!peer.presharedKey().equals(tunnel.presharedKey())) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " " + device.name() + " holds preshared key "
                    + peer.presharedKey() + " for peer " + peer.remote() + ", which sent with " + tunnel.presharedKey()
                    + ": the handshake from " + outer.src() + " fails");
        }
        Ipv4Address source = tunnel.inner().src();
        Optional<Ipv4Prefix> allowed = peer.allowedIpFor(source);
        if (allowed.isEmpty()) {
            Optional<WireGuardPeer> owner = device.peerFor(source);
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " " + device.name() + " drops a packet from peer "
                    + peer.remote() + ": inner source " + source + " is not in its allowed IPs " + peer.allowedIps()
                    + owner.map(o -> " (" + source + " belongs to peer " + o.remote() + ")").orElse(""));
        }
        v.step(new Step.Decap(Encapsulation.WIREGUARD, device.name(), OptionalInt.empty(), outer.dport(), outer.src(), outer.dst(),
                arrivedBy(v), "peer " + peer.remote() + " (key " + peer.publicKey() + "): allowed IP " + allowed.get() + " holds "
                + source, true, tunnel.inner()));
        return new CableEntry.Unwrapped(device.name(), tunnel);
    }

    /**
     * ESP-in-UDP reaches the IKE daemon's NAT-T socket, which hands it to XFRM; bare ESP (IP protocol
     * 50) goes to XFRM by its protocol, no socket involved. Either way the SA must be one the receiver
     * has the other end of (by the two ends' identities, which NAT leaves alone), and the inner packet
     * must match that SA's inbound policy. Tunnel mode keeps the input device, so the inner packet
     * enters from the interface the outer one came by.
     */
    private CableEntry esp(Visit v, Tunnel.Esp tunnel) {
        Packet outer = v.packet;
        boolean inUdp = outer.protocol() == Protocol.UDP;
        if (inUdp && !net.ipsec.listens(v.host.index, outer.dport())) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " has no IPsec NAT-T socket on UDP port " + outer.dport());
        }
        IpsecConnection connection = net.ipsec.peerOf(v.host.index, tunnel.sender());
        IpsecConnection sender = tunnel.sender();
        if (connection == null) {
            // IKE pairs the ends by identity: across NAT the addresses differ from end to end.
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " has no IPsec connection from " + sender.rightId() + " to "
                    + sender.leftId() + " (leftid to rightid) for " + sender.rightSubnet() + " <- " + sender.leftSubnet() + " (" + sender.name()
                    + " at the sender): IKE cannot negotiate that SA");
        }
        Packet inner = tunnel.inner();
        if (!connection.rightSubnet().contains(inner.src()) || !connection.leftSubnet().contains(inner.dst())) {
            return new CableEntry.Refused(Disposition.DROPPED, v.host.name + " " + connection.name() + ": the inbound policy "
                    + connection.rightSubnet() + " -> " + connection.leftSubnet() + " does not cover " + inner.src() + " -> " + inner.dst());
        }
        String in = arrivedBy(v);
        v.step(new Step.Decap(inUdp ? Encapsulation.ESP_IN_UDP : Encapsulation.ESP, connection.name(), OptionalInt.empty(),
                inUdp ? outer.dport() : 0, outer.src(), outer.dst(), in, "SA " + connection.name() + ": policy in " + connection.rightSubnet()
                + " -> " + connection.leftSubnet() + " holds " + inner.src() + " -> " + inner.dst(), true, inner));
        return new CableEntry.Unwrapped(in, tunnel);
    }

    /** The device the datagram came in by; a host's own datagram came by loopback. */
    private static String arrivedBy(Visit v) {
        return v.in == null ? RoutingPolicy.LOOPBACK : v.in;
    }
}
