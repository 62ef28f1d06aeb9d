package io.periscope.plan.dns;

/**
 * Which of several equally good clusters answers this time. The resolver stays pure by asking this
 * instead of keeping a counter: the server rotates per service, the simulator always takes the first.
 */
@FunctionalInterface
public interface Rotation {

    /** Always the first candidate in cluster order: what a trace shows, reproducibly. */
    Rotation FIRST = (service, candidates) -> 0;

    /** @return an index in {@code 0 .. candidates - 1} */
    int pick(String service, int candidates);
}
