package io.periscope.lab.link;

import java.time.Duration;

/**
 * A delay line the lab needs: packets crossing a delayed link in one direction wait in NFQUEUE queue
 * {@code queueNumber} of {@code namespace} until the supervisor's delay line lets them go,
 * {@code delay} plus or minus up to {@code jitter} after they came.
 *
 * @param link what it delays, for people, e.g. {@code cluster1/gw-1 uplink, leaving} or {@code cable cluster1 -> cluster2 at cluster1/gw-1}
 */
public record DelayedLink(String namespace, int queueNumber, Duration delay, Duration jitter, String link) {

    /** What the supervisor's delay lines are told to serve for it. */
    public DelayLineSpec spec() {
        return new DelayLineSpec(namespace, queueNumber, delay, jitter);
    }
}
