package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.simulator.hash.NatAddressChoice;
import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.MultipathHash;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The sending end of a cable, after routing and POSTROUTING chose how a packet leaves: a VXLAN device
 * as the output sends to the FDB's destination, from its {@code local} address or, without one, from
 * the address the host's route to that destination picks; a WireGuard
 * device as the output encrypts for the peer whose allowed IPs hold the destination; an IPsec outbound
 * policy covering the packet, whatever the output device, encrypts it into ESP to the connection's
 * remote end, inside UDP or as IP protocol 50 as the connection says. Each records its step in the hop and says what the walker sends next
 * ({@link CableExit}); {@link Decapsulator} is the receiving end.
 */
final class Encapsulator {

    /** Outer IPv4 (20), UDP (8), VXLAN (8) and the inner frame's Ethernet header (14). */
    static final int VXLAN_OVERHEAD = 50;
    /** Outer IPv4 (20), UDP (8), WireGuard's data message header (16) and its Poly1305 tag (16). */
    static final int WIREGUARD_OVERHEAD = 60;
    /** Outer IPv4 (20), UDP (8), ESP header (8) and AES-GCM's IV (8); then the trailer (2) and ICV (16). */
    static final int ESP_IN_UDP_HEADERS = 44;
    /** The same without the UDP header: ESP as IP protocol 50. */
    static final int ESP_HEADERS = ESP_IN_UDP_HEADERS - 8;
    static final int ESP_TRAILER = 2;
    static final int ESP_ICV = 16;

    /** Linux's default ephemeral port range, from which VXLAN picks outer source ports. */
    private static final int EPHEMERAL_LOW = 32768;
    private static final int EPHEMERAL_HIGH = 60999;

    private final CompiledNetwork net;

    Encapsulator(CompiledNetwork net) {
        this.net = net;
    }

    /**
     * The cable, if any, that takes the packet leaving by {@code nexthop} ({@code egress} is how it
     * leaves, {@code next} the next hop's address): the VXLAN device, else the WireGuard device the
     * route names, else an IPsec policy.
     */
    CableExit exit(Visit v, CompiledNexthop nexthop, CompiledHost.Egress egress, Ipv4Address next) {
        if (egress.vxlan() != null) {
            return vxlan(v, egress.vxlan(), next);
        }
        WireGuardDevice wireGuard = egress.wireGuard();
        if (wireGuard != null) {
            return wireGuard(v, wireGuard);
        }
        // XFRM: after routing and POSTROUTING (NAT re-does the policy lookup with the translated
        // addresses), a packet an outbound policy covers leaves as ESP instead. The outer packet of an
        // SA is not looked up again: the kernel's bundle sends it as it is.
        if (!(v.tunnel instanceof Tunnel.Esp) && net.ipsec.hasAny(v.host.index)) {
            IpsecConnection connection = net.ipsec.outbound(v.host.index, v.packet.src(), v.packet.dst());
            if (connection != null) {
                return esp(v, connection, nexthop.device());
            }
        }
        return CableExit.Clear.INSTANCE;
    }

    /** On a host with IPsec connections, a packet that reaches the wire in clear is worth explaining. */
    String clearTextNote(Visit v) {
        if (v.tunnel instanceof Tunnel.Esp || !net.ipsec.hasAny(v.host.index)) {
            return "";
        }
        return " (no IPsec connection of " + v.host.name + " covers " + v.packet.src() + " -> " + v.packet.dst()
                + ", so it was not encrypted)";
    }

    private static CableExit vxlan(Visit v, VxlanFabric.Resolver vxlan, Ipv4Address next) {
        VxlanDevice device = vxlan.device();
        VxlanFabric.Resolution resolution = vxlan.resolve(next);
        if (resolution instanceof VxlanFabric.Resolution.Failed f) {
            return new CableExit.Refused(Disposition.UNREACHABLE, f.reason());
        }
        VxlanFabric.Resolution.Found found = (VxlanFabric.Resolution.Found) resolution;
        // A device without local or dev (upstream's) sends from the address, and by the device, that
        // the host's route to the FDB's destination picks, as the kernel's vxlan_get_route does.
        Ipv4Address source;
        String underlay;
        if (device.local().isPresent() && device.underlay().isPresent()) {
            source = device.local().get();
            underlay = device.underlay().get();
        } else {
            CompiledHost.SocketRoute route = v.host.socketRoute(found.outerDestination());
            if (route == null) {
                return new CableExit.Refused(Disposition.NO_ROUTE, v.host.name + " " + device.name() + ": no route to "
                        + found.outerDestination() + ", the FDB's destination");
            }
            source = device.local().orElse(route.source());
            underlay = device.underlay().orElse(route.device());
        }
        departBy(v, device.name());
        // The kernel's VXLAN device leaves Don't Fragment off its outer packet (df unset): a too large one is fragmented.
        Packet outer = new Packet(source, found.outerDestination(), entropyPort(v.packet), device.port(),
                Protocol.UDP, Packet.DEFAULT_TTL, outerLength(v.packet, VXLAN_OVERHEAD), false);
        Tunnel tunnel = new Tunnel.Vxlan(device.vni(), found.mac(), v.packet, v.tunnel);
        v.step(new Step.Encap(Encapsulation.VXLAN, device.name(), vxlan.vni(), device.port(), source,
                found.outerDestination(), underlay, found.how(), false, outer));
        // Only a device bound to its underlay (dev) forces the outer packet out of it.
        String oif = device.underlay().orElse(null);
        // Same namespace: the sk_buff keeps its mark through the encapsulation (skb_scrub_packet
        // clears it only across namespaces), but its conntrack entry is the outer packet's own.
        return new CableExit.Wrapped(outer, tunnel, oif);
    }

    /**
     * WireGuard's cryptokey routing: the peer is the one whose allowed IPs hold the destination; the
     * encrypted message goes in UDP from the device's listen port to the peer's endpoint, from the
     * address the host's routing picks for that endpoint. The message is a new sk_buff of the device's
     * socket, without the inner packet's mark.
     */
    private static CableExit wireGuard(Visit v, WireGuardDevice device) {
        Packet inner = v.packet;
        Optional<WireGuardPeer> chosen = device.peerFor(inner.dst());
        if (chosen.isEmpty()) {
            return new CableExit.Refused(Disposition.UNREACHABLE, v.host.name + " " + device.name() + ": no peer's allowed IPs hold "
                    + inner.dst() + " (WireGuard answers host unreachable)");
        }
        WireGuardPeer peer = chosen.get();
        CompiledHost.SocketRoute route = v.host.socketRoute(peer.endpointAddress());
        if (route == null) {
            return new CableExit.Refused(Disposition.NO_ROUTE, v.host.name + " " + device.name() + ": no route to peer " + peer.remote()
                    + " at " + peer.endpoint());
        }
        departBy(v, device.name());
        // WireGuard pads the plaintext to 16 bytes and sends without Don't Fragment.
        Packet outer = new Packet(route.source(), peer.endpointAddress(), device.listenPort(), peer.endpointPort(), Protocol.UDP,
                Packet.DEFAULT_TTL, inner.length() == Packet.SMALL ? Packet.SMALL : WIREGUARD_OVERHEAD + roundUp(inner.length(), 16), false);
        v.step(new Step.Encap(Encapsulation.WIREGUARD, device.name(), OptionalInt.empty(), peer.endpointPort(), route.source(),
                peer.endpointAddress(), route.device(), "peer " + peer.remote() + " (key " + peer.publicKey() + "): allowed IP "
                + peer.allowedIpFor(inner.dst()).orElseThrow() + " holds " + inner.dst(), true, outer));
        v.mark = 0;
        return new CableExit.Wrapped(outer, new Tunnel.WireGuard(device.privateKey(), peer.presharedKey(), inner, v.tunnel), null);
    }

    /**
     * Tunnel-mode ESP from the connection's left address to its right one: inside UDP from the left
     * NAT-T port to the right one when the connection encapsulates (NAT between the gateways, or
     * forced), else as IP protocol 50 with no UDP header, as upstream's Libreswan sends it. The
     * sk_buff keeps its mark.
     */
    private static CableExit esp(Visit v, IpsecConnection connection, String routedDevice) {
        Packet inner = v.packet;
        CompiledHost.SocketRoute route = v.host.socketRoute(connection.right());
        departBy(v, routedDevice);
        boolean inUdp = connection.encapsulation().inUdp();
        // Tunnel-mode ESP copies the inner Don't Fragment bit to the outer header.
        int length = inner.length() == Packet.SMALL ? Packet.SMALL
                : (inUdp ? ESP_IN_UDP_HEADERS : ESP_HEADERS) + roundUp(inner.length() + ESP_TRAILER, 4) + ESP_ICV;
        Packet outer = inUdp
                ? new Packet(connection.left(), connection.right(), connection.leftIkePort(), connection.rightIkePort(), Protocol.UDP,
                        Packet.DEFAULT_TTL, length, inner.df())
                : new Packet(connection.left(), connection.right(), 0, 0, Protocol.ESP, Packet.DEFAULT_TTL, length, inner.df());
        v.step(new Step.Encap(inUdp ? Encapsulation.ESP_IN_UDP : Encapsulation.ESP, connection.name(), OptionalInt.empty(),
                inUdp ? connection.rightIkePort() : 0, connection.left(), connection.right(), route == null ? routedDevice : route.device(),
                "policy out " + connection.leftSubnet() + " -> " + connection.rightSubnet() + " holds " + inner.src() + " -> " + inner.dst()
                + "; " + connection.encapsulation().why(), true, outer));
        return new CableExit.Wrapped(outer, new Tunnel.Esp(connection, inner, v.tunnel), null);
    }

    /** The hop leaves by the tunnel device (the first one, when tunnels nest), with the packet as it was then. */
    private static void departBy(Visit v, String device) {
        if (v.hopOut == null) {
            v.hopOut = device;
            v.hopDepart = v.packet;
        }
    }

    private static int outerLength(Packet inner, int overhead) {
        return inner.length() == Packet.SMALL ? Packet.SMALL : inner.length() + overhead;
    }

    private static int roundUp(int value, int unit) {
        return (value + unit - 1) / unit * unit;
    }

    /**
     * VXLAN's outer source port spreads flows over the underlay. The kernel derives it from a hash of
     * the inner flow seeded at boot, so no simulator can know it; this is a fixed function of the inner
     * 5-tuple in the same range (32768-60999).
     */
    private static int entropyPort(Packet inner) {
        int hash = MultipathHash.hash(inner);
        return EPHEMERAL_LOW + (int) NatAddressChoice.reciprocalScale(hash, EPHEMERAL_HIGH - EPHEMERAL_LOW + 1L);
    }
}
