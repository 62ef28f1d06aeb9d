package io.periscope.lab.probe;

import io.periscope.lab.capture.Direction;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * What one probe's packets did, rebuilt from the captures in the simulator's terms: the path of the
 * request's first transmission and, where it reached a socket, the path of the first answer to it;
 * and how that ended. This is a statement about packets, not about the connection: a TCP socket
 * that retransmits may get through on another path after the first one failed, and the simulator,
 * which follows one packet and its answer, describes the first transmission.
 */
public final class AttemptAnalysis {

    private final ProbeTarget target;
    private final LabWiring wiring;
    private final List<Sighting> sightings;
    private final RouteQuery routes;
    private final WireGuardReceipts receipts;
    private final OvnAccount ovn;

    public AttemptAnalysis(ProbeTarget target, LabWiring wiring, List<Sighting> sightings, RouteQuery routes) {
        this(target, wiring, sightings, routes, WireGuardReceipts.UNREAD);
    }

    /** @param receipts what the WireGuard devices counted while the captures ran, which explains a drop inside one */
    public AttemptAnalysis(ProbeTarget target, LabWiring wiring, List<Sighting> sightings, RouteQuery routes, WireGuardReceipts receipts) {
        this(target, wiring, sightings, routes, receipts, OvnAccount.NONE);
    }

    /** @param ovn OVN's account of what the packets did inside an OVN cluster's logical network */
    public AttemptAnalysis(ProbeTarget target, LabWiring wiring, List<Sighting> sightings, RouteQuery routes, WireGuardReceipts receipts,
                           OvnAccount ovn) {
        this.ovn = ovn;
        this.target = target;
        this.wiring = wiring;
        this.sightings = sightings;
        this.routes = routes;
        this.receipts = receipts;
    }

    /** How a path that was not delivered ended, and why where the lab can tell. */
    private record Ending(String disposition, Optional<String> reason) {
    }

    /** @param deliveries what a server received from a source port, if anything */
    public TracePath observe(AttemptOutcome outcome, IntFunction<Optional<Delivery>> deliveries) {
        return switch (target.protocol()) {
            case TCP -> tcp(outcome, deliveries);
            case UDP -> udp(outcome, deliveries);
            case ICMP -> icmp(outcome);
            // Flows are TCP, UDP or ICMP (the loader refuses others); ESP is only a cable's outer packet.
            case ESP -> throw new IllegalArgumentException("the probe sends no ESP flows");
        };
    }

    private TracePath tcp(AttemptOutcome outcome, IntFunction<Optional<Delivery>> deliveries) {
        Optional<IpDatagram> syn = firstLeaving(target.source(),
                d -> d.protocol() == IpDatagram.TCP && d.tcp().isSyn() && d.sport() == outcome.sourcePort());
        if (syn.isEmpty()) {
            return neverLeft(outcome);
        }
        long sequence = syn.get().tcp().seq();
        long tsVal = syn.get().tcp().tsVal();
        HopReconstruction.Followed followed = follow(new PacketIdentity.TcpSyn(sequence, tsVal), target.source(), generated(outcome, syn));
        List<TraceHop> forward = followed.hops();
        HostId end = host(forward.getLast());
        Optional<IpDatagram> synAck = firstLeaving(end, new PacketIdentity.TcpSynAck(sequence, tsVal, PacketIdentity.ANY)::matches);
        if (synAck.isEmpty()) {
            return ended(followed, outcome, forward, List.of());
        }
        // The server's view of the connection where it accepted this very SYN (a retransmission may
        // have come another way, translated otherwise); else the SYN as it arrived.
        TracePacket arrived = forward.getLast().arrive();
        TracePacket answered = deliveries.apply(outcome.sourcePort())
                .filter(d -> d.host().equals(end) && d.received().src().equals(arrived.src()) && d.received().sport() == arrived.sport())
                .map(Delivery::received).orElse(arrived);
        HopReconstruction.Followed reply = follow(new PacketIdentity.TcpSynAck(sequence, tsVal, synAck.get().tcp().tsVal()), end,
                answered.answer());
        return arrivedBack(target.source(), forward, reply.hops()) ? new TracePath("delivered", forward, reply.hops(), List.of())
                : ended(reply, outcome, forward, reply.hops());
    }

    private TracePath udp(AttemptOutcome outcome, IntFunction<Optional<Delivery>> deliveries) {
        Optional<IpDatagram> request = firstLeaving(target.source(),
                new PacketIdentity.UdpPayload(EchoServers.REQUEST_MARK + outcome.udpMarker())::matches);
        if (request.isEmpty()) {
            return neverLeft(outcome);
        }
        HopReconstruction.Followed followed = follow(new PacketIdentity.UdpPayload(EchoServers.REQUEST_MARK + outcome.udpMarker()),
                target.source(), generated(outcome, request));
        List<TraceHop> forward = followed.hops();
        Optional<Delivery> delivery = deliveries.apply(outcome.sourcePort());
        if (delivery.isEmpty()) {
            return ended(followed, outcome, forward, List.of());
        }
        HopReconstruction.Followed reply = follow(new PacketIdentity.UdpPayload(EchoServers.REPLY_MARK + outcome.udpMarker()),
                delivery.get().host(), delivery.get().received().answer());
        return arrivedBack(target.source(), forward, reply.hops()) ? new TracePath("delivered", forward, reply.hops(), List.of())
                : ended(reply, outcome, forward, reply.hops());
    }

    /** ICMP traces have no reply: the echo request counts as delivered where its host answers it. */
    private TracePath icmp(AttemptOutcome outcome) {
        PacketIdentity request = new PacketIdentity.IcmpMessage(IpDatagram.ICMP_ECHO_REQUEST, outcome.icmpLength());
        Optional<IpDatagram> sent = firstLeaving(target.source(), request::matches);
        if (sent.isEmpty()) {
            return neverLeft(outcome);
        }
        HopReconstruction.Followed followed = follow(request, target.source(), generated(outcome, sent));
        List<TraceHop> forward = followed.hops();
        boolean answered = firstLeaving(host(forward.getLast()),
                new PacketIdentity.IcmpMessage(IpDatagram.ICMP_ECHO_REPLY, outcome.icmpLength())::matches).isPresent();
        return answered ? new TracePath("delivered", forward, List.of(), List.of()) : ended(followed, outcome, forward, List.of());
    }

    /** Nothing left the sending host: the send itself failed (no route there), and the socket said why. */
    private TracePath neverLeft(AttemptOutcome outcome) {
        TracePacket generated = TracePacket.of(outcome.localAddress().or(target::sourceIp).orElse(Ipv4Address.ANY), target.destination(),
                outcome.sourcePort(), target.port(), target.protocol());
        TraceHop only = new TraceHop(target.source().toString(), Optional.empty(), Optional.empty(), generated, Optional.empty(),
                Optional.empty());
        String disposition = outcome.disposition().equals("delivered") ? "dropped" : outcome.disposition();
        return new TracePath(disposition, List.of(only), List.of(), List.of());
    }

    /** The packet as the socket sent it: its own address (routing's choice for a node), the target, the ports. */
    private TracePacket generated(AttemptOutcome outcome, Optional<IpDatagram> firstSent) {
        Ipv4Address source = outcome.localAddress().or(target::sourceIp).or(() -> firstSent.map(IpDatagram::src)).orElse(Ipv4Address.ANY);
        return TracePacket.of(source, target.destination(), outcome.sourcePort(), target.port(), target.protocol());
    }

    private HopReconstruction.Followed follow(PacketIdentity identity, HostId from, TracePacket generated) {
        return new HopReconstruction(wiring, sightings, identity, receipts, ovn).trace(from, generated);
    }

    /** The path of a packet that did not arrive, {@code last} being the direction it ended in. */
    private TracePath ended(HopReconstruction.Followed last, AttemptOutcome outcome, List<TraceHop> forward, List<TraceHop> reply) {
        Ending ending = fate(last, outcome);
        return new TracePath(ending.disposition(), forward, reply, List.of(), ending.reason());
    }

    /**
     * The answer reached the sender's host addressed as the sender's socket expects it, or as the
     * sending host's own translation of its packet expects it: a node's own traffic leaves SNATed to
     * its CNI address (upstream's {@code -s 240.0.0.0/8 -o vx-submariner -j SNAT}), so the answer is
     * on the wire to that address, and the host's conntrack gives it back to the socket.
     */
    static boolean arrivedBack(HostId source, List<TraceHop> forward, List<TraceHop> reply) {
        TraceHop last = reply.getLast();
        TraceHop first = forward.getFirst();
        return last.node().equals(source.toString()) && last.out().isEmpty()
                && (last.arrive().equals(first.arrive().answer()) || first.depart().filter(d -> last.arrive().equals(d.answer())).isPresent());
    }

    /**
     * How a packet that did not arrive ended: in a WireGuard device that let nothing out, dropped
     * there for the reason its counters give; else the ICMP error the host where it ended sent back
     * (a missing route gives "net unreachable", an unreachable route "host unreachable"); where the
     * host sent none, its routing table's answer for the packet; with a route, it was dropped.
     */
    private Ending fate(HopReconstruction.Followed followed, AttemptOutcome outcome) {
        if (followed.droppedByWireGuard().isPresent()) {
            return new Ending("dropped", Optional.of(followed.droppedByWireGuard().get().reason()));
        }
        return new Ending(fate(followed.hops(), outcome), Optional.empty());
    }

    private String fate(List<TraceHop> hops, AttemptOutcome outcome) {
        TraceHop last = hops.getLast();
        if (wiring.isOvnRouter(last.node())) {
            // It ended inside OVN, at the last router OVN's account names: no kernel of the lab to ask.
            return "dropped";
        }
        HostId host = host(last);
        Optional<IpDatagram> error = sightings.stream()
                .filter(s -> s.host().equals(host) && s.direction() == Direction.LEAVING)
                .map(s -> s.frame().innermost())
                .filter(d -> d.protocol() == IpDatagram.ICMP && d.icmpType() == IpDatagram.ICMP_DESTINATION_UNREACHABLE)
                .filter(d -> d.quoted().isPresent() && quotes(d.quoted().get(), last.arrive()))
                .findFirst();
        if (error.isPresent()) {
            return error.get().icmpCode() == 0 ? "no-route" : "unreachable";
        }
        if (hops.size() == 1 && last.out().isEmpty() && !outcome.disposition().equals("delivered")) {
            return outcome.disposition();
        }
        return routes.failure(host, last.arrive(), last.in()).orElse("dropped");
    }

    /** An ICMP error quotes the packet it reports on; ports identify it even where NAT rewrote addresses. */
    static boolean quotes(IpDatagram.Quoted quoted, TracePacket packet) {
        if (quoted.protocol() != packet.proto().number()) {
            return false;
        }
        if (packet.proto().hasPorts()) {
            return quoted.sport() == packet.sport() && quoted.dport() == packet.dport();
        }
        return quoted.dst().equals(packet.dst()) || quoted.src().equals(packet.src());
    }

    private Optional<IpDatagram> firstLeaving(HostId host, Predicate<IpDatagram> which) {
        return sightings.stream()
                .filter(s -> s.host().equals(host) && s.direction() == Direction.LEAVING && s.frame().vxlan().isEmpty())
                .filter(s -> which.test(s.frame().datagram()))
                .min(Comparator.comparingLong(Sighting::nanos))
                .map(s -> s.frame().datagram());
    }

    private static HostId host(TraceHop hop) {
        String[] parts = hop.node().split("/");
        return parts.length == 2 ? HostId.node(parts[0], parts[1]) : HostId.pod(parts[0], parts[1], parts[2]);
    }
}
