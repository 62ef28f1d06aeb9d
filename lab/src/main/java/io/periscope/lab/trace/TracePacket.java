package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;

/** The packet fields a trace hop shows ({@code arrive}, {@code depart}); ports are 0 for ICMP. */
public record TracePacket(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol proto) {

    public static TracePacket of(Ipv4Address src, Ipv4Address dst, int sport, int dport, Protocol proto) {
        return proto.hasPorts() ? new TracePacket(src, dst, sport, dport, proto) : new TracePacket(src, dst, 0, 0, proto);
    }

    /** What a socket answering this packet sends: addresses and ports swapped. */
    public TracePacket answer() {
        return new TracePacket(dst, src, dport, sport, proto);
    }

    /** {@code SRC: 10.1.128.4:40000 DST: 242.254.2.254:80}, as the seed documents print a packet. */
    public String endpoints() {
        return "SRC: " + endpoint(src, sport) + " DST: " + endpoint(dst, dport);
    }

    private String endpoint(Ipv4Address address, int port) {
        return proto.hasPorts() ? address + ":" + port : address.toString();
    }
}
