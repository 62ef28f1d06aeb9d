package io.periscope.simulator.trace;

import io.periscope.model.topology.Disposition;

import java.util.List;
import java.util.Optional;

/**
 * One way a flow can go: where multipath routing or kube-proxy's random endpoint choice offers
 * alternatives, each combination is its own path. {@code reply} is empty unless the forward packet
 * was delivered and the protocol has a reply (TCP, UDP); the disposition is the reply's then, because
 * a connection whose answers get lost does not work. {@code choices} lists the alternatives taken.
 * {@code links} adds up the shaped links the path crosses (its one-way delay, bottleneck and loss), when
 * the topology file shapes any of them.
 */
public record PathTrace(Disposition disposition, List<Hop> forward, List<Hop> reply, Optional<String> reason,
                        List<String> choices, Optional<PathLinks> links) {

    public PathTrace {
        forward = List.copyOf(forward);
        reply = List.copyOf(reply);
        choices = List.copyOf(choices);
        java.util.Objects.requireNonNull(links, "links");
    }

    /** A path whose links nobody added up (the file shapes none, or the path was observed). */
    public PathTrace(Disposition disposition, List<Hop> forward, List<Hop> reply, Optional<String> reason, List<String> choices) {
        this(disposition, forward, reply, reason, choices, Optional.empty());
    }

    public PathTrace withLinks(PathLinks figures) {
        return new PathTrace(disposition, forward, reply, reason, choices, Optional.of(figures));
    }

    public boolean hasReply() {
        return !reply.isEmpty();
    }
}
