package io.periscope.dataplane.election;

import java.time.Duration;

/**
 * How long a lease lasts, how long a leader keeps trying to renew it, and how often candidates
 * retry. Upstream uses 15 s, 10 s and 2 s, so a failover takes 13 to 19 s after the leader's death:
 * the lease must run out as the standby saw it (up to a retry period after the last renewal), and the
 * standby notices at its next retry.
 */
public record LeaseTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    public static final LeaseTimings UPSTREAM = new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

    /**
     * The lab's: everything on one machine, the store a local file. Two seconds of lease ride out a
     * JVM thread starved for a second on a loaded machine (a renewal every 250 ms, 1.5 s to succeed),
     * and a failover still takes 1.75 to 2.5 s instead of upstream's 13 to 19.
     */
    public static final LeaseTimings LAB = new LeaseTimings(Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(250));

    public LeaseTimings {
        // client-go and fabric8 check the same, with 1.2 as their jitter factor.
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("the lease duration (" + leaseDuration + ") must be longer than the renew deadline (" + renewDeadline + ")");
        }
        if (renewDeadline.toMillis() <= retryPeriod.toMillis() * 1.2) {
            throw new IllegalArgumentException("the renew deadline (" + renewDeadline + ") must be longer than 1.2 times the retry period (" + retryPeriod + ")");
        }
    }

    /** The shortest and longest time from a leader's death (without releasing) to a standby's takeover. */
    public Duration fastestTakeover() {
        return leaseDuration.minus(retryPeriod);
    }

    public Duration slowestTakeover() {
        return leaseDuration.plus(retryPeriod.multipliedBy(2));
    }
}
