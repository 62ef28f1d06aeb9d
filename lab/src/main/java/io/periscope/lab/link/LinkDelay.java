package io.periscope.lab.link;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long a delay line holds each packet: {@code delay} plus a sample drawn uniformly from
 * [-jitter, +jitter], clamped at 0. netem ({@code tc qdisc ... netem delay D J}) draws its sample
 * the same way when no distribution table is given (uniform, clamped at 0 too: a negative sum sends
 * at once), but it can also correlate a sample with the previous one and draw from normal, pareto
 * or paretonormal tables; a delay line does neither. Like netem without a rate, a jittered packet may
 * overtake one that came before it (each is released at its own time); without jitter the order holds.
 */
public record LinkDelay(Duration delay, Duration jitter) {

    public static final LinkDelay NONE = new LinkDelay(Duration.ZERO, Duration.ZERO);

    public LinkDelay {
        if (delay.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("delay " + delay + " and jitter " + jitter + " cannot be negative");
        }
    }

    public boolean jittered() {
        return !jitter.isZero();
    }

    /** One packet's holding time, in nanoseconds. */
    public long holdNanos(RandomGenerator random) {
        long base = delay.toNanos();
        if (jitter.isZero()) {
            return base;
        }
        long spread = jitter.toNanos();
        // uniform in [-spread, +spread], both ends included
        long sample = random.nextLong(-spread, spread + 1);
        return Math.max(0, base + sample);
    }
}
