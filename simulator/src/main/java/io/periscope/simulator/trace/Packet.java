package io.periscope.simulator.trace;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;

/**
 * The IPv4 header fields the simulator tracks. Ports are 0 for ICMP. The TTL is kept because a
 * forwarding loop or a too-long path ends on it, as in the kernel; traces do not print it.
 */
public record Packet(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol, int ttl) {

    /** The TTL Linux gives locally generated packets ({@code net.ipv4.ip_default_ttl}). */
    public static final int DEFAULT_TTL = 64;

    public static Packet of(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol) {
        return new Packet(src, dst, protocol.hasPorts() ? sport : 0, protocol.hasPorts() ? dport : 0, protocol, DEFAULT_TTL);
    }

    public Packet withSource(Ipv4Address address, int port) {
        return new Packet(address, dst, port, dport, protocol, ttl);
    }

    public Packet withDestination(Ipv4Address address, int port) {
        return new Packet(src, address, sport, port, protocol, ttl);
    }

    public Packet withTtl(int newTtl) {
        return new Packet(src, dst, sport, dport, protocol, newTtl);
    }

    /** The answer a socket sends back: addresses and ports swapped, a fresh TTL. */
    public Packet answer() {
        return new Packet(dst, src, dport, sport, protocol, DEFAULT_TTL);
    }

    /** Same addresses, ports and protocol (the TTL does not identify a flow). */
    public boolean sameFlow(Packet other) {
        return src.bits() == other.src.bits() && dst.bits() == other.dst.bits() && sport == other.sport && dport == other.dport
                && protocol == other.protocol;
    }

    /** {@code SRC: 10.1.128.4:40000 DST: 242.254.2.254:80}, the line the seed documents print after each step. */
    public String endpoints() {
        return "SRC: " + endpoint(src, sport) + " DST: " + endpoint(dst, dport);
    }

    private String endpoint(Ipv4Address address, int port) {
        return protocol.hasPorts() ? address + ":" + port : address.toString();
    }

    @Override
    public String toString() {
        return protocol.lowerName() + " " + endpoint(src, sport) + " -> " + endpoint(dst, dport);
    }
}
