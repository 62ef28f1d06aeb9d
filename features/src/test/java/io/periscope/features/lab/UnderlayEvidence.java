package io.periscope.features.lab;

import io.periscope.features.backend.CableSecrecy;
import io.periscope.lab.capture.WholeFrame;
import io.periscope.model.net.Ipv4Address;

import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Judges frames captured on the gateways' underlay: are the packets between two clusters hidden?
 * Every frame whose outer addresses are one cluster's and the other's must carry neither the
 * probe's marker nor any inner address in clear, and the cable's own messages must have gone both
 * ways: WireGuard transport data (message type 4, the first byte of the UDP payload, three zero
 * bytes after it) to the cable's port. The outer IP header is left out of the search: it names the
 * gateways, which is no secret.
 *
 * @param left       one cluster's name and its nodes' underlay addresses
 * @param right      the other's
 * @param ports      the cable's UDP ports (each gateway's WireGuard listen port)
 * @param marker     the bytes the probe put in its packets
 * @param inner      the addresses of the packets inside the cable, as they crossed
 */
record UnderlayEvidence(Side left, Side right, Set<Integer> ports, byte[] marker, Set<Ipv4Address> inner) {

    /** A cluster and the underlay addresses of its nodes. */
    record Side(String cluster, Set<Ipv4Address> addresses) {
    }

    /** Ethernet, outer IP and UDP, a WireGuard header and the inner packet's headers and marker fit. */
    static final int SNAPLEN = 512;

    private static final int ETHERNET = 14;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int UDP = 17;
    /** A transport data message: type, reserved, receiver index, counter, then at least the 16-byte tag. */
    private static final int WIREGUARD_DATA_MINIMUM = 1 + 3 + 4 + 8 + 16;

    CableSecrecy judge(List<WholeFrame> frames) {
        int there = 0;
        int back = 0;
        int between = 0;
        for (WholeFrame frame : frames) {
            byte[] b = frame.bytes();
            if (b.length < ETHERNET + 20 || u16(b, 12) != ETHERTYPE_IPV4 || (b[ETHERNET] & 0xf0) != 0x40) {
                continue;
            }
            Ipv4Address src = new Ipv4Address(s32(b, ETHERNET + 12));
            Ipv4Address dst = new Ipv4Address(s32(b, ETHERNET + 16));
            boolean leftToRight = left.addresses().contains(src) && right.addresses().contains(dst);
            boolean rightToLeft = right.addresses().contains(src) && left.addresses().contains(dst);
            if (!leftToRight && !rightToLeft) {
                continue;
            }
            between++;
            int l4 = ETHERNET + (b[ETHERNET] & 0x0f) * 4;
            int protocol = b[ETHERNET + 9] & 0xff;
            String seen = "in a packet from " + src + " to " + dst + " (IP protocol " + protocol + ") on " + frame.iface() + " of "
                    + frame.host();
            if (indexOf(b, l4, marker) >= 0) {
                return new CableSecrecy.Contradicted("the probe's marker " + HexFormat.of().formatHex(marker) + " is in clear " + seen);
            }
            for (Ipv4Address address : inner) {
                if (indexOf(b, l4, bytes(address)) >= 0) {
                    return new CableSecrecy.Contradicted("the inner address " + address + " is in clear " + seen);
                }
            }
            if (protocol == UDP && b.length >= l4 + 8 + WIREGUARD_DATA_MINIMUM && ports.contains(u16(b, l4 + 2))
                    && wireGuardData(b, l4 + 8)) {
                if (leftToRight) {
                    there++;
                } else {
                    back++;
                }
            }
        }
        if (there == 0 || back == 0) {
            return new CableSecrecy.Contradicted("of " + between + " packets between " + left.cluster() + " and " + right.cluster()
                    + " on the gateways' underlay, " + there + " from " + left.cluster() + " and " + back + " from " + right.cluster()
                    + " are WireGuard data messages (type 4) to the cable's port " + ports + "; the probe's packets must cross both ways in them");
        }
        return new CableSecrecy.Shown("captured on the gateways' underlay: " + there + " WireGuard data messages (type 4) from "
                + left.cluster() + " to " + right.cluster() + " and " + back + " back, to ports " + ports + "; in none of the " + between
                + " packets between the clusters is the probe's marker or an inner address " + inner + " in clear");
    }

    private static boolean wireGuardData(byte[] b, int payload) {
        return b[payload] == 4 && b[payload + 1] == 0 && b[payload + 2] == 0 && b[payload + 3] == 0;
    }

    /** Where {@code needle} starts in {@code haystack} at or after {@code from}, or -1. */
    static int indexOf(byte[] haystack, int from, byte[] needle) {
        outer:
        for (int i = from; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] bytes(Ipv4Address address) {
        return new byte[]{(byte) address.octet(0), (byte) address.octet(1), (byte) address.octet(2), (byte) address.octet(3)};
    }

    private static int u16(byte[] b, int offset) {
        return (b[offset] & 0xff) << 8 | (b[offset + 1] & 0xff);
    }

    private static int s32(byte[] b, int offset) {
        return (b[offset] & 0xff) << 24 | (b[offset + 1] & 0xff) << 16 | (b[offset + 2] & 0xff) << 8 | (b[offset + 3] & 0xff);
    }
}
