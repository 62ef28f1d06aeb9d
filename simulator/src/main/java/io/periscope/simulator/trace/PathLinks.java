package io.periscope.simulator.trace;

import java.time.Duration;
import java.util.Optional;

/**
 * The link figures of a path: of its forward packet and, when it has one, of its reply, which may
 * cross other gateways. The round trip is the sum of the two one-way delays.
 */
public record PathLinks(LinkFigures forward, Optional<LinkFigures> reply) {

    public Optional<Duration> roundTrip() {
        return reply.map(r -> forward.delay().plus(r.delay()));
    }

    /** {@code one-way 25ms (± 3ms), bottleneck 100mbit at cluster1/gw-1 uplink, loss 1%; round trip 50ms (± 6ms)}. */
    public String text() {
        StringBuilder text = new StringBuilder(forward.text("one-way"));
        reply.ifPresent(r -> {
            text.append("; reply ").append(r.text("one-way"));
            text.append("; round trip ").append(io.periscope.model.topology.LinkProperties.durationText(forward.delay().plus(r.delay())));
            Duration jitter = forward.jitter().plus(r.jitter());
            if (!jitter.isZero()) {
                text.append(" (± ").append(io.periscope.model.topology.LinkProperties.durationText(jitter)).append(')');
            }
        });
        return text.toString();
    }
}
