package io.periscope.simulator.conntrack;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.Packet;

/** A conntrack tuple: what identifies one direction of a connection. */
public record ConnTuple(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol protocol) {

    public static ConnTuple of(Packet packet) {
        return new ConnTuple(packet.src(), packet.dst(), packet.sport(), packet.dport(), packet.protocol());
    }

    /** The tuple of the direction opposite to {@code packet}'s: what {@code of(packet).inverse()} is, made at once. */
    public static ConnTuple inverseOf(Packet packet) {
        return new ConnTuple(packet.dst(), packet.src(), packet.dport(), packet.sport(), packet.protocol());
    }

    /** The tuple of the other direction. */
    public ConnTuple inverse() {
        return new ConnTuple(dst, src, dport, sport, protocol);
    }

    /** The tuple written as a packet, as a trace lists a conntrack entry (its TTL means nothing). */
    public Packet asPacket() {
        return Packet.of(src, dst, sport, dport, protocol);
    }

    public boolean matches(Packet packet) {
        // Addresses by their bits: a record's generated equals is a call the JIT does not inline,
        // and every packet at every host compares against the path's connections.
        return sport == packet.sport() && dport == packet.dport() && protocol == packet.protocol()
                && src.bits() == packet.src().bits() && dst.bits() == packet.dst().bits();
    }
}
