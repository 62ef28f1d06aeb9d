package io.periscope.lab.link;

/**
 * A distribution of durations in nanoseconds, kept as a log-linear histogram: exact below 128 ns,
 * then 64 buckets per power of two, so a percentile it reports (the middle of its bucket) is within
 * 0.8% of the true value; mean, minimum and maximum are exact. Durations from 2^40 ns (18 minutes)
 * count as that. A constant 18 KB whatever the count, so a delay line keeps one for its whole life.
 * Not thread-safe: its owner records and {@link #summary summarises} under a lock of its own.
 */
final class HoldingTimes {

    private static final int LINEAR = 128;
    private static final int PER_POWER = 64;
    private static final long LIMIT = (1L << 40) - 1;
    private static final int BUCKETS = index(LIMIT) + 1;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max;

    void record(long nanos) {
        long value = Math.min(LIMIT, Math.max(0, nanos));
        counts[index(value)]++;
        count++;
        sum += value;
        min = Math.min(min, value);
        max = Math.max(max, value);
    }

    long count() {
        return count;
    }

    /** The bucket of {@code value}: itself below 128, else by its 7 leading bits and their position. */
    static int index(long value) {
        if (value < LINEAR) {
            return (int) value;
        }
        int magnitude = 63 - Long.numberOfLeadingZeros(value);   // 7 or more
        int shift = magnitude - 6;                                 // value >> shift is 64..127
        return LINEAR + (shift - 1) * PER_POWER + (int) ((value >> shift) - PER_POWER);
    }

    /** The smallest value of bucket {@code index}. */
    static long lowest(int index) {
        if (index < LINEAR) {
            return index;
        }
        int k = index - LINEAR;
        int shift = k / PER_POWER + 1;
        return (long) (k % PER_POWER + PER_POWER) << shift;
    }

    /** The middle of bucket {@code index}: what a percentile falling in it reports. */
    static long middle(int index) {
        if (index < LINEAR) {
            return index;
        }
        int shift = (index - LINEAR) / PER_POWER + 1;
        return lowest(index) + (1L << shift) / 2;
    }

    /** The value at or below which {@code fraction} (0 to 1) of the recorded values lie; 0 when none was recorded. */
    long percentile(double fraction) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(fraction * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(max, Math.max(min, middle(i)));
            }
        }
        return max;
    }

    HoldingSummary summary() {
        if (count == 0) {
            return HoldingSummary.EMPTY;
        }
        return new HoldingSummary(count, micros(sum / (double) count), micros(min), micros(percentile(0.5)), micros(percentile(0.9)),
                micros(percentile(0.99)), micros(max));
    }

    private static double micros(double nanos) {
        return Math.round(nanos / 100.0) / 10.0;
    }
}
