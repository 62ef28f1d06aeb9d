package io.periscope.features.backend;

/**
 * Echo requests sent one after another along a flow, and how their round trips came out: in the lab
 * measured from real replies, on the simulator the figures the links the paths cross add up to.
 *
 * @param sent      how many requests were sent
 * @param lostShare the share of them that got no reply (the simulator: the chance a request or its reply is lost)
 * @param medianMs  the middle round trip (the simulator: the links' round-trip delay)
 * @param lowMs     the 5th percentile of the round trips (the simulator: the delay less every jitter on the way)
 * @param highMs    the 95th percentile (the simulator: the delay plus every jitter)
 * @param measured  whether real packets gave these figures, so that a check allows for sampling
 */
public record RoundTrips(int sent, double lostShare, double medianMs, double lowMs, double highMs, boolean measured) {
}
