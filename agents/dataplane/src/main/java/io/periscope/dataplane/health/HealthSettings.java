package io.periscope.dataplane.health;

import java.time.Duration;

/**
 * How a node checks the gateways it load-balances to.
 *
 * <p>A gateway is declared down after {@code lossThreshold} probes in a row went unanswered, each
 * sent {@code interval} apart and waited for until the next is due; so a dead gateway is noticed
 * between {@code (lossThreshold - 1) x interval} and {@code lossThreshold x interval} after its last
 * answer. A gateway declared down comes back only once it has answered every probe for
 * {@code holdDown}: one lucky answer from a flapping link does not pull traffic back to it.
 *
 * <p>The defaults, 40 ms x 3 (detection within 120 ms) and 2 s of hold-down, sit just below BFD's
 * common fast setting (50 ms x 3 = 150 ms) so that detection plus the route change stays under
 * 150 ms; upstream Submariner pings every second and declares an endpoint down after 5 losses
 * (5 s), and reports it without moving traffic. A probe is one ICMP echo of 28 bytes: 25 a second
 * per gateway watched, nothing next to the traffic it protects.
 */
public record HealthSettings(Duration interval, int lossThreshold, Duration holdDown) {

    public static final HealthSettings DEFAULTS = new HealthSettings(Duration.ofMillis(40), 3, Duration.ofSeconds(2));

    public HealthSettings {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the probe interval must be positive, not " + interval);
        }
        if (lossThreshold < 1) {
            throw new IllegalArgumentException("the loss threshold must be at least 1, not " + lossThreshold);
        }
        if (holdDown.isNegative()) {
            throw new IllegalArgumentException("the hold-down period cannot be negative, not " + holdDown);
        }
    }

    /** The longest a dead gateway goes unnoticed after its last answer. */
    public Duration detectionTime() {
        return interval.multipliedBy(lossThreshold);
    }
}
