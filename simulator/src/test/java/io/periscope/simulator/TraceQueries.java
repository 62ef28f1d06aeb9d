package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

import java.util.List;
import java.util.Optional;

/** Reading traces in assertions. */
final class TraceQueries {

    private TraceQueries() {
    }

    static Hop hopAt(List<Hop> hops, HostId host) {
        return hops.stream().filter(h -> h.node().equals(host)).findFirst()
                .orElseThrow(() -> new AssertionError("no hop at " + host + " in " + hops.stream().map(Hop::node).toList()));
    }

    static List<String> kinds(Hop hop) {
        return hop.steps().stream().map(Step::kind).toList();
    }

    static List<HostId> nodes(List<Hop> hops) {
        return hops.stream().map(Hop::node).toList();
    }

    static Step lastStep(List<Hop> hops) {
        return hops.getLast().steps().getLast();
    }

    /** The packet the last hop delivered; fails when the hops do not end in a delivery. */
    static Packet delivered(List<Hop> hops) {
        if (lastStep(hops) instanceof Step.Deliver d) {
            return d.packet();
        }
        throw new AssertionError("the path ends in " + lastStep(hops));
    }

    static <T extends Step> List<T> steps(List<Hop> hops, Class<T> kind) {
        return hops.stream().flatMap(h -> h.steps().stream()).filter(kind::isInstance).map(kind::cast).toList();
    }

    static ResolvedFlow tcp(HostId from, String sourceIp, String destination, int port) {
        return new ResolvedFlow(from, Optional.of(Ipv4Address.parse(sourceIp)), Ipv4Address.parse(destination), port, Protocol.TCP);
    }

    static Packet packet(String src, int sport, String dst, int dport) {
        return Packet.of(Ipv4Address.parse(src), Ipv4Address.parse(dst), sport, dport, Protocol.TCP);
    }
}
