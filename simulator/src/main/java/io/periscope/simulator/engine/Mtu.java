package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Disposition;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.routing.RouteDecision;
import io.periscope.simulator.routing.RoutingPolicy;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

/**
 * Packet sizes against device MTUs: what leaves a device (whole, as fragments, or not at all), what a
 * device takes from the wire, and the TCP MSS a socket offers or a TCPMSS rule clamps to. The cables'
 * own overheads are {@link Encapsulator}'s.
 */
final class Mtu {

    /** The 4 bytes of a VLAN tag a Linux device takes beyond its MTU from the wire ({@code is_skb_forwardable}). */
    static final int VLAN_ALLOWANCE = 4;

    private Mtu() {
    }

    /**
     * Whether the packet may leave by {@code device}: it fits the device's MTU, or it may be fragmented
     * (no Don't Fragment, or the sending socket fragments its own), in which case it goes on as
     * fragments. Otherwise the packet ends here: a socket's own with EMSGSIZE, a forwarded one (or a
     * tunnel's outer packet that copied Don't Fragment) with ICMP fragmentation needed back to its source.
     */
    static boolean fitsOut(Visit v, String device) {
        // A packet whose size is not followed fits every MTU: no need to look the device's up (a map
        // lookup by name, on every hop of every path).
        if (v.packet.length() == Packet.SMALL) {
            return true;
        }
        int mtu = v.host.mtu(device);
        if (!v.packet.exceeds(mtu)) {
            return true;
        }
        boolean ownSocket = v.in == null && v.tunnel == null;
        if (!v.packet.df() || (ownSocket && v.socketFragments)) {
            Packet largest = v.packet.withLength(largestFragment(mtu), false);
            v.step(new Step.Fragment(device, mtu, largest));
            v.packet = largest;
            return true;
        }
        if (ownSocket) {
            Endings.end(v, Disposition.DROPPED, "the socket refuses to send " + v.packet.length() + " bytes with Don't Fragment: "
                    + device + "'s MTU is " + mtu + " (EMSGSIZE, message too long)");
        } else {
            // ICMP fragmentation needed is a destination unreachable (type 3, code 4), as the sender sees it.
            Endings.end(v, Disposition.UNREACHABLE, v.packet.length() + " bytes with Don't Fragment set do not fit " + v.host.name + " "
                    + device + "'s MTU " + mtu + ": ICMP fragmentation needed (mtu " + mtu + ") goes back to " + v.packet.src());
        }
        return false;
    }

    /** The largest fragment of a packet fragmented for {@code mtu}: a 20-byte header and payload in 8-byte units. */
    static int largestFragment(int mtu) {
        return 20 + (mtu - 20) / 8 * 8;
    }

    /**
     * A device takes no frame larger than its MTU (and a VLAN tag) from the wire (a veth's peer, a
     * bridge port): the packet is lost without a word to anyone, the path-MTU black hole. True when it
     * was; {@code receiver} is the host of {@code port}, {@code device} the one the packet left by.
     */
    static boolean lostOnTheWire(Visit v, String device, CompiledHost receiver, Wiring.Port port) {
        if (v.packet.length() == Packet.SMALL) {
            return false;
        }
        int mtu = receiver.mtu(port.iface());
        if (!v.packet.exceeds(mtu + VLAN_ALLOWANCE)) {
            return false;
        }
        Endings.lostAfter(v, device, v.packet.length() + " bytes are larger than " + receiver.name + " " + port.iface() + "'s MTU " + mtu
                + ": it drops them on receipt and nobody is told (a path-MTU black hole)");
        return true;
    }

    /**
     * The MSS a Linux socket offers in its SYN or SYN-ACK: the route's MTU (the output device's, as no
     * route of a plan has an {@code mtu} metric) less 40 bytes of IPv4 and TCP headers
     * ({@code ipv4_default_advmss}), at least {@code net.ipv4.route.min_adv_mss} (256) and at most
     * 65495.
     */
    static int advertisedMss(int mtu) {
        return Math.min(Math.max(mtu - 40, 256), 65535 - 40);
    }

    /**
     * What {@code TCPMSS --clamp-mss-to-pmtu} makes of a SYN's MSS on this host: the smaller of the
     * output route's MTU and the MTU of the route back to the packet's source
     * ({@code tcpmss_reverse_mtu}), less 40 bytes of IPv4 and TCP headers; 0 before routing chose a
     * device (PREROUTING), where the kernel's rule would have no route to read.
     */
    static int clampedMss(CompiledHost host, String out, Ipv4Address source) {
        if (out == null) {
            return 0;
        }
        int mtu = host.mtu(out);
        if (host.routing.lookup(source, Ipv4Address.ANY, 0, RoutingPolicy.LOOPBACK, null) instanceof RouteDecision.Forward back
                && !back.nexthops().isEmpty()) {
            mtu = Math.min(mtu, host.mtu(back.nexthops().getFirst().device()));
        }
        return mtu - 40;
    }
}
