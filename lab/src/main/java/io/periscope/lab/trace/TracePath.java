package io.periscope.lab.trace;

import java.util.List;
import java.util.Optional;

/**
 * One way a flow went (observed) or can go (simulated): its disposition ({@code delivered},
 * {@code dropped}, {@code no-route}, {@code unreachable}), the forward hops and, for a delivered
 * TCP or UDP flow, the reply's hops. {@code choices} are the simulator's multipath choices, empty
 * for an observed path.
 *
 * @param reason why a path that was not delivered ended where it did, where that is known: the
 *               simulator's drop reason, or what the lab attributes the end to (a WireGuard device
 *               that dropped the packet, by its counters). Said, not compared: the place it ended
 *               and the disposition are what the comparison judges
 */
public record TracePath(String disposition, List<TraceHop> forward, List<TraceHop> reply, List<String> choices, Optional<String> reason) {

    public TracePath {
        forward = List.copyOf(forward);
        reply = List.copyOf(reply);
        choices = List.copyOf(choices);
    }

    public TracePath(String disposition, List<TraceHop> forward, List<TraceHop> reply, List<String> choices) {
        this(disposition, forward, reply, choices, Optional.empty());
    }

    /** The hosts and interfaces in order, forward then reply: what identifies a path. */
    public String route() {
        StringBuilder text = new StringBuilder();
        for (TraceHop hop : forward) {
            text.append(text.isEmpty() ? "" : " > ").append(hop.node());
        }
        if (!reply.isEmpty()) {
            text.append(" | reply");
            for (TraceHop hop : reply) {
                text.append(" > ").append(hop.node());
            }
        }
        return text.toString();
    }
}
