package io.periscope.lab.capture;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;

import java.io.ByteArrayOutputStream;

/** Ethernet frames built byte by byte, as a kernel would put them on a wire. */
public final class Frames {

    private Frames() {
    }

    public static byte[] ethernet(MacAddress src, MacAddress dst, byte[] ip) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        mac(out, dst);
        mac(out, src);
        out.write(0x08);
        out.write(0x00);
        out.writeBytes(ip);
        return out.toByteArray();
    }

    public static byte[] ipv4(Ipv4Address src, Ipv4Address dst, int protocol, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x45);
        out.write(0);
        u16(out, 20 + payload.length);
        u16(out, 0x1234);
        u16(out, 0x4000);
        out.write(64);
        out.write(protocol);
        u16(out, 0);
        u32(out, src.bits());
        u32(out, dst.bits());
        out.writeBytes(payload);
        return out.toByteArray();
    }

    public static byte[] tcp(int sport, int dport, long seq, long ack, int flags) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        u16(out, sport);
        u16(out, dport);
        u32(out, (int) seq);
        u32(out, (int) ack);
        out.write(0x50);
        out.write(flags);
        u16(out, 64240);
        u16(out, 0);
        u16(out, 0);
        return out.toByteArray();
    }

    /** A TCP header with NOP, NOP and the timestamp option, as Linux sends SYNs and SYN-ACKs. */
    public static byte[] tcpWithTimestamps(int sport, int dport, long seq, long ack, int flags, long tsVal, long tsEcr) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        u16(out, sport);
        u16(out, dport);
        u32(out, (int) seq);
        u32(out, (int) ack);
        out.write(0x80);
        out.write(flags);
        u16(out, 64240);
        u16(out, 0);
        u16(out, 0);
        out.write(1);
        out.write(1);
        out.write(8);
        out.write(10);
        u32(out, (int) tsVal);
        u32(out, (int) tsEcr);
        return out.toByteArray();
    }

    public static byte[] udp(int sport, int dport, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        u16(out, sport);
        u16(out, dport);
        u16(out, 8 + payload.length);
        u16(out, 0);
        out.writeBytes(payload);
        return out.toByteArray();
    }

    public static byte[] vxlan(int vni, byte[] innerFrame) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        u32(out, 0x08000000);
        u32(out, vni << 8);
        out.writeBytes(innerFrame);
        return out.toByteArray();
    }

    public static byte[] icmp(int type, int code, byte[] rest) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        out.write(code);
        u16(out, 0);
        u32(out, 0);
        out.writeBytes(rest);
        return out.toByteArray();
    }

    private static void mac(ByteArrayOutputStream out, MacAddress mac) {
        for (int shift = 40; shift >= 0; shift -= 8) {
            out.write((int) (mac.bits() >>> shift) & 0xff);
        }
    }

    private static void u16(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8 & 0xff);
        out.write(value & 0xff);
    }

    private static void u32(ByteArrayOutputStream out, int value) {
        u16(out, value >>> 16);
        u16(out, value & 0xffff);
    }
}
