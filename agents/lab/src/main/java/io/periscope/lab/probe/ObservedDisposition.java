package io.periscope.lab.probe;

import io.periscope.lab.capture.Direction;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;

import java.util.List;
import java.util.Optional;

/**
 * How a probe ended, in the words of the trace dispositions. The sending socket knows when its
 * answer came back, but not why a reply got lost on the way: the kernel that gave up on a packet
 * says so with an ICMP error to the packet's sender, and the captures show it leaving that host.
 * Net unreachable is a missing route ({@code no-route}), host unreachable an {@code unreachable}
 * route; a packet that ends silently was {@code dropped}.
 */
public final class ObservedDisposition {

    private ObservedDisposition() {
    }

    /**
     * @param failed the hops of the direction that did not arrive (the reply when the request was
     *               delivered to a server, else the request)
     */
    public static String of(AttemptOutcome outcome, boolean requestFailed, List<TraceHop> failed, List<Sighting> sightings) {
        if (outcome.disposition().equals("delivered")) {
            return "delivered";
        }
        if (!failed.isEmpty()) {
            TraceHop last = failed.getLast();
            Optional<IpDatagram> error = sightings.stream()
                    .filter(s -> s.host().toString().equals(last.node()) && s.direction() == Direction.LEAVING)
                    .map(s -> s.frame().innermost())
                    .filter(d -> d.protocol() == IpDatagram.ICMP && d.icmpType() == IpDatagram.ICMP_DESTINATION_UNREACHABLE)
                    .filter(d -> d.quoted().isPresent() && quotes(d.quoted().get(), last.arrive()))
                    .findFirst();
            if (error.isPresent()) {
                return switch (error.get().icmpCode()) {
                    case 0 -> "no-route";
                    default -> "unreachable";
                };
            }
        }
        // The socket's own error is the request's fate when no hop reported one (a missing route on
        // the sending host itself fails the send without any ICMP).
        return requestFailed ? outcome.disposition() : "dropped";
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
}
