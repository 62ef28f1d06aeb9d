package io.periscope.lab.link;

/**
 * A distribution of times in microseconds (to 0.1 us), as a delay line reports it: how long packets
 * were held, or how late they were released after they were due.
 *
 * @param count how many packets it counts
 */
public record HoldingSummary(long count, double meanMicros, double minMicros, double p50Micros, double p90Micros, double p99Micros,
                             double maxMicros) {

    public static final HoldingSummary EMPTY = new HoldingSummary(0, 0, 0, 0, 0, 0, 0);
}
