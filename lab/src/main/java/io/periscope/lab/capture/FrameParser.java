package io.periscope.lab.capture;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * Decodes captured Ethernet frames by hand: only IPv4 over Ethernet, TCP/UDP/ICMP headers, and
 * VXLAN on the ports the plan's tunnels use. pcap4j's packet classes know no VXLAN; the few header
 * fields needed here are simpler to read directly than to dig out of its object tree.
 */
public final class FrameParser {

    private static final int ETHERNET_HEADER = 14;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int VXLAN_HEADER = 8;
    private static final int PAYLOAD_KEPT = 64;

    private FrameParser() {
    }

    /** @param vxlanPorts UDP destination ports that carry VXLAN; empty when the frame is not IPv4 or is cut short */
    public static Optional<CapturedFrame> parse(byte[] frame, Set<Integer> vxlanPorts) {
        return parse(frame, 0, frame.length, vxlanPorts, 0);
    }

    /**
     * A packet of a layer-3 device (a {@code tun}), which has no Ethernet header: parsed as if it
     * had one with zero MAC addresses, since such a device has none.
     */
    public static Optional<CapturedFrame> parseBareIp(byte[] packet, Set<Integer> vxlanPorts) {
        byte[] framed = new byte[ETHERNET_HEADER + packet.length];
        framed[12] = (byte) (ETHERTYPE_IPV4 >> 8);
        framed[13] = (byte) ETHERTYPE_IPV4;
        System.arraycopy(packet, 0, framed, ETHERNET_HEADER, packet.length);
        return parse(framed, vxlanPorts);
    }

    private static Optional<CapturedFrame> parse(byte[] b, int offset, int end, Set<Integer> vxlanPorts, int depth) {
        if (end - offset < ETHERNET_HEADER + 20 || u16(b, offset + 12) != ETHERTYPE_IPV4) {
            return Optional.empty();
        }
        MacAddress dst = mac(b, offset);
        MacAddress src = mac(b, offset + 6);
        int ip = offset + ETHERNET_HEADER;
        if ((b[ip] & 0xf0) != 0x40) {
            return Optional.empty();
        }
        int headerLength = (b[ip] & 0x0f) * 4;
        int totalLength = u16(b, ip + 2);
        int protocol = b[ip + 9] & 0xff;
        Ipv4Address srcIp = new Ipv4Address(s32(b, ip + 12));
        Ipv4Address dstIp = new Ipv4Address(s32(b, ip + 16));
        int l4 = ip + headerLength;
        // Later fragments carry no transport header; the probe's packets are far below the MTU.
        boolean firstFragment = (u16(b, ip + 6) & 0x1fff) == 0;
        int sport = 0;
        int dport = 0;
        IpDatagram.TcpFields tcp = IpDatagram.TcpFields.NONE;
        int icmpType = -1;
        int icmpCode = -1;
        Optional<IpDatagram.Quoted> quoted = Optional.empty();
        String payload = "";
        Optional<CapturedFrame.Vxlan> vxlan = Optional.empty();
        if (firstFragment && protocol == IpDatagram.TCP && end - l4 >= 20) {
            sport = u16(b, l4);
            dport = u16(b, l4 + 2);
            tcp = tcp(b, l4, end);
        } else if (firstFragment && protocol == IpDatagram.UDP && end - l4 >= 8) {
            sport = u16(b, l4);
            dport = u16(b, l4 + 2);
            int data = l4 + 8;
            if (vxlanPorts.contains(dport) && depth == 0 && end - data >= VXLAN_HEADER && (b[data] & 0x08) != 0) {
                int vni = (u16(b, data + 4) << 8) | (b[data + 6] & 0xff);
                vxlan = parse(b, data + VXLAN_HEADER, end, vxlanPorts, depth + 1).map(inner -> new CapturedFrame.Vxlan(vni, inner));
            }
            if (vxlan.isEmpty()) {
                int length = Math.min(PAYLOAD_KEPT, Math.max(0, end - data));
                payload = new String(b, data, length, StandardCharsets.ISO_8859_1);
            }
        } else if (firstFragment && protocol == IpDatagram.ICMP && end - l4 >= 4) {
            icmpType = b[l4] & 0xff;
            icmpCode = b[l4 + 1] & 0xff;
            if ((icmpType == IpDatagram.ICMP_DESTINATION_UNREACHABLE || icmpType == IpDatagram.ICMP_TIME_EXCEEDED) && end - l4 >= 8 + 20) {
                quoted = quoted(b, l4 + 8, end);
            }
        }
        return Optional.of(new CapturedFrame(src, dst,
                new IpDatagram(srcIp, dstIp, protocol, totalLength, sport, dport, tcp, icmpType, icmpCode, payload, quoted),
                vxlan));
    }

    /** The TCP header's numbers and flags, and the timestamp option where the options hold one. */
    private static IpDatagram.TcpFields tcp(byte[] b, int l4, int end) {
        long seq = Integer.toUnsignedLong(s32(b, l4 + 4));
        long ack = Integer.toUnsignedLong(s32(b, l4 + 8));
        int flags = b[l4 + 13] & 0xff;
        int optionsEnd = Math.min(end, l4 + ((b[l4 + 12] & 0xf0) >>> 4) * 4);
        long tsVal = -1;
        long tsEcr = -1;
        int at = l4 + 20;
        while (at < optionsEnd) {
            int kind = b[at] & 0xff;
            if (kind == 0) {
                break;
            }
            if (kind == 1) {
                at++;
                continue;
            }
            if (at + 1 >= optionsEnd) {
                break;
            }
            int length = b[at + 1] & 0xff;
            if (length < 2 || at + length > optionsEnd) {
                break;
            }
            if (kind == 8 && length == 10) {
                tsVal = Integer.toUnsignedLong(s32(b, at + 2));
                tsEcr = Integer.toUnsignedLong(s32(b, at + 6));
            }
            at += length;
        }
        return new IpDatagram.TcpFields(seq, ack, flags, tsVal, tsEcr);
    }

    /** The IP header and the ports of the packet an ICMP error quotes. */
    private static Optional<IpDatagram.Quoted> quoted(byte[] b, int ip, int end) {
        if ((b[ip] & 0xf0) != 0x40) {
            return Optional.empty();
        }
        int headerLength = (b[ip] & 0x0f) * 4;
        int protocol = b[ip + 9] & 0xff;
        int l4 = ip + headerLength;
        boolean ports = (protocol == IpDatagram.TCP || protocol == IpDatagram.UDP) && end - l4 >= 4;
        return Optional.of(new IpDatagram.Quoted(new Ipv4Address(s32(b, ip + 12)), new Ipv4Address(s32(b, ip + 16)), protocol,
                ports ? u16(b, l4) : 0, ports ? u16(b, l4 + 2) : 0));
    }

    private static MacAddress mac(byte[] b, int offset) {
        long bits = 0;
        for (int i = 0; i < 6; i++) {
            bits = bits << 8 | (b[offset + i] & 0xff);
        }
        return new MacAddress(bits);
    }

    private static int u16(byte[] b, int offset) {
        return (b[offset] & 0xff) << 8 | (b[offset + 1] & 0xff);
    }

    private static int s32(byte[] b, int offset) {
        return (b[offset] & 0xff) << 24 | (b[offset + 1] & 0xff) << 16 | (b[offset + 2] & 0xff) << 8 | (b[offset + 3] & 0xff);
    }
}
