package io.periscope.simulator.trace;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;

/**
 * The IPv4 header fields the simulator tracks. Ports are 0 for ICMP. The TTL is kept because a
 * forwarding loop or a too-long path ends on it, as in the kernel; traces do not print it.
 *
 * @param length the largest IP packet on the wire for it, headers included (a fragment's once it is
 *               fragmented); {@link #SMALL} for a packet whose size the trace does not follow
 * @param df     the Don't Fragment bit
 */
public record Packet(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol, int ttl, int length, boolean df) {

    /** The TTL Linux gives locally generated packets ({@code net.ipv4.ip_default_ttl}). */
    public static final int DEFAULT_TTL = 64;
    /** A packet small enough for any MTU: no size checks apply to it. */
    public static final int SMALL = 0;

    public Packet(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol, int ttl) {
        this(src, dst, sport, dport, protocol, ttl, SMALL, true);
    }

    public static Packet of(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol) {
        return new Packet(src, dst, protocol.hasPorts() ? sport : 0, protocol.hasPorts() ? dport : 0, protocol, DEFAULT_TTL);
    }

    public Packet withSource(Ipv4Address address, int port) {
        return new Packet(address, dst, port, dport, protocol, ttl, length, df);
    }

    public Packet withDestination(Ipv4Address address, int port) {
        return new Packet(src, address, sport, port, protocol, ttl, length, df);
    }

    public Packet withTtl(int newTtl) {
        return new Packet(src, dst, sport, dport, protocol, newTtl, length, df);
    }

    /** The same packet {@code newLength} bytes long (on the wire), with Don't Fragment as given. */
    public Packet withLength(int newLength, boolean dontFragment) {
        return new Packet(src, dst, sport, dport, protocol, ttl, newLength, dontFragment);
    }

    /** Whether its size is followed and exceeds {@code mtu}. */
    public boolean exceeds(int mtu) {
        return length != SMALL && length > mtu;
    }

    /**
     * The answer a socket sends back: addresses and ports swapped, a fresh TTL, the same size (the
     * lab's echo servers and ICMP echo answer with what they received).
     */
    public Packet answer() {
        return new Packet(dst, src, dport, sport, protocol, DEFAULT_TTL, length, df);
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
