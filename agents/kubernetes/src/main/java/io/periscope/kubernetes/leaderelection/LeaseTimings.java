package io.periscope.kubernetes.leaderelection;

import java.time.Duration;

/**
 * How long a lease lasts, how long a leader keeps trying to renew it, and how often candidates
 * retry. Upstream uses 15 s, 10 s and 2 s, so a failover takes seconds to tens of seconds.
 */
public record LeaseTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    public static final LeaseTimings UPSTREAM = new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

    public LeaseTimings {
        // fabric8's LeaderElector checks the same, with 1.2 as its jitter factor.
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("the lease duration (" + leaseDuration + ") must be longer than the renew deadline (" + renewDeadline + ")");
        }
        if (renewDeadline.toMillis() <= retryPeriod.toMillis() * 1.2) {
            throw new IllegalArgumentException("the renew deadline (" + renewDeadline + ") must be longer than 1.2 times the retry period (" + retryPeriod + ")");
        }
    }
}
