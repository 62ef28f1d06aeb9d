package io.periscope.simulator.trace;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One thing that happened to a packet inside a host. Every step carries the packet as it is after
 * the step; for the steps of a VXLAN outer packet that is the outer packet.
 */
public sealed interface Step {

    Packet packet();

    /** The {@code kind} of the trace JSON. */
    String kind();

    /**
     * A routing decision: the table that answered, the route as {@code ip route} prints it, and the
     * nexthop taken ({@code via} empty for a directly connected destination or local delivery).
     */
    record Route(String table, String route, Optional<Ipv4Address> via, String device, Packet packet) implements Step {
        public String kind() {
            return "route";
        }

        /**
         * {@code via 241.18.0.4}, {@code dev eth0} for a direct route, {@code local} for local delivery,
         * the route's type ({@code blackhole}, {@code unreachable}) where there is no way out.
         */
        public String nexthop() {
            if (table.equals("local")) {
                return "local";
            }
            if (via.isPresent()) {
                return "via " + via.get();
            }
            return device.isEmpty() ? route.substring(0, route.indexOf(' ')) : "dev " + device;
        }
    }

    /** {@code -j MARK} or {@code -j CONNMARK}: the mark after the rule. */
    record Mark(RuleRef rule, boolean connmark, int mark, Packet packet) implements Step {
        public String kind() {
            return "mark";
        }
    }

    /**
     * {@code -j TCPMSS --set-mss}: a SYN's MSS option lowered from {@code from} to {@code mss}. The
     * kernel never raises it, so a SYN whose MSS is already no larger passes unchanged, without a step.
     */
    record Mss(RuleRef rule, int from, int mss, Packet packet) implements Step {
        public String kind() {
            return "mss";
        }
    }

    /** A source translation: by a rule of a NEW connection, or (rule empty) the stored one of its connection. */
    record Snat(Optional<RuleRef> rule, Packet packet) implements Step {
        public String kind() {
            return "snat";
        }
    }

    /** A destination translation: by a rule of a NEW connection, or (rule empty) the stored one. */
    record Dnat(Optional<RuleRef> rule, Packet packet) implements Step {
        public String kind() {
            return "dnat";
        }
    }

    /** Conntrack reversing a SNAT on a reply: the destination goes back to the original source. */
    record Unsnat(Packet packet) implements Step {
        public String kind() {
            return "unsnat";
        }
    }

    /** Conntrack reversing a DNAT on a reply: the source goes back to the original destination. */
    record Undnat(Packet packet) implements Step {
        public String kind() {
            return "undnat";
        }
    }

    /** An explicit ACCEPT or DROP rule (a chain's ACCEPT policy is not a step). */
    record Filter(RuleRef rule, boolean accepted, Packet packet) implements Step {
        public String kind() {
            return "filter";
        }
    }

    /** {@code -j CT --notrack}: conntrack will not follow this packet, so no NAT applies to it. */
    record NoTrack(RuleRef rule, Packet packet) implements Step {
        public String kind() {
            return "notrack";
        }
    }

    /**
     * A cable wraps the packet; {@code packet} is the outer packet (UDP, or ESP as IP protocol 50).
     * {@code device} is the VXLAN or WireGuard device, or, for ESP, which has no device, the Libreswan
     * connection whose XFRM policy took the packet. {@code vni} is VXLAN's only. {@code port} is the
     * outer UDP destination port (0 for bare ESP, which has none).
     * {@code resolution} says how the outer destination was found: ARP over the FDB entries (VXLAN),
     * the peer whose allowed IPs hold the destination (WireGuard), the policy that matched (ESP).
     */
    record Encap(Encapsulation encapsulation, String device, OptionalInt vni, int port, Ipv4Address outerSrc, Ipv4Address outerDst,
                 String underlay, String resolution, boolean encrypted, Packet packet) implements Step {
        public String kind() {
            return "encap";
        }
    }

    /**
     * A cable unwraps the packet; {@code packet} is the inner packet, which then enters the host from
     * {@code device} (for ESP, which has no device, from the interface the outer packet came in by).
     * {@code check} says what the receiver verified (WireGuard: the peer and its allowed IPs; ESP: the
     * SA and its inbound policy); empty for VXLAN, which verifies nothing.
     */
    record Decap(Encapsulation encapsulation, String device, OptionalInt vni, int port, Ipv4Address outerSrc, Ipv4Address outerDst,
                 String underlay, String check, boolean encrypted, Packet packet) implements Step {
        public String kind() {
            return "decap";
        }
    }

    /** The packet reached a socket of this host: a pod's process or the node's own. */
    record Deliver(String to, Packet packet) implements Step {
        public String kind() {
            return "deliver";
        }
    }

    /**
     * The packet was larger than {@code device}'s MTU without Don't Fragment, so it leaves in fragments;
     * {@code packet} is the largest of them, which the rest of the path must carry.
     */
    record Fragment(String device, int mtu, Packet packet) implements Step {
        public String kind() {
            return "fragment";
        }
    }

    /** The packet went no further; {@code reason} says why. */
    record Drop(String reason, Packet packet) implements Step {
        public String kind() {
            return "drop";
        }
    }
}
