package io.periscope.model.topology;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a link does to the packets crossing it, each way, as the topology file states it: a rate
 * limit, a one-way delay with its jitter, a loss probability and the length of the queue in front of
 * the rate limit. Every property is optional; a link without any is as fast as the machine.
 *
 * <p>The spellings are tc's, so a value reads the same in the file, in a trace and in {@code tc
 * qdisc show}: rates in {@code bit}, {@code kbit}, {@code mbit}, {@code gbit} (SI multiples of bits per
 * second), times in {@code us}, {@code ms}, {@code s}, loss in percent.
 */
public record LinkProperties(OptionalLong rateBitsPerSecond, Optional<Duration> delay, Optional<Duration> jitter,
                             OptionalDouble lossPercent, OptionalInt queuePackets) {

    public static final LinkProperties NONE =
            new LinkProperties(OptionalLong.empty(), Optional.empty(), Optional.empty(), OptionalDouble.empty(), OptionalInt.empty());

    /** The slowest rate a link may have: below it a full-size frame takes longer than a second to send. */
    public static final long MIN_RATE_BITS = 8_000;
    /** The fastest: beyond what a veth carries on any machine, so a larger figure is a typo. */
    public static final long MAX_RATE_BITS = 100_000_000_000L;
    /** The longest one-way delay (and jitter): a minute; even a geostationary hop takes 0.25 s. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(60);
    /** The longest queue, in packets, a link may hold in front of its rate limit. */
    public static final int MAX_QUEUE_PACKETS = 1_000_000;

    public LinkProperties {
        java.util.Objects.requireNonNull(rateBitsPerSecond, "rateBitsPerSecond");
        java.util.Objects.requireNonNull(delay, "delay");
        java.util.Objects.requireNonNull(jitter, "jitter");
        java.util.Objects.requireNonNull(lossPercent, "lossPercent");
        java.util.Objects.requireNonNull(queuePackets, "queuePackets");
    }

    /** Whether the link is left as fast and clean as the machine makes it. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** The one-way delay, zero when unstated. */
    public Duration delayOrZero() {
        return delay.orElse(Duration.ZERO);
    }

    /** The loss as a probability (0 to 1), zero when unstated. */
    public double lossProbability() {
        return lossPercent.orElse(0) / 100.0;
    }

    /**
     * {@code 100mbit}, {@code 1.5gbit}, {@code 64kbit}: the largest unit that keeps the figure at least 1,
     * exact (a decimal fraction of that unit), so the loader reads back the very rate.
     */
    public static String rateText(long bitsPerSecond) {
        String[] units = {"bit", "kbit", "mbit", "gbit"};
        int unit = 0;
        long scale = 1;
        while (unit < units.length - 1 && bitsPerSecond >= scale * 1000) {
            scale *= 1000;
            unit++;
        }
        return exact(bitsPerSecond, scale) + units[unit];
    }

    /** {@code 20ms}, {@code 1.5ms}, {@code 250us}, {@code 2s}, exact to the nanosecond. */
    public static String durationText(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos >= 1_000_000_000L) {
            return exact(nanos, 1_000_000_000L) + "s";
        }
        if (nanos >= 1_000_000L || nanos == 0) {
            return exact(nanos, 1_000_000L) + "ms";
        }
        return exact(nanos, 1_000L) + "us";
    }

    /**
     * {@code 0.5%}: twelve significant digits, which every figure a file can hold survives and which
     * hides the binary noise of a computed one (1.4950000000000019 is 1.495).
     */
    public static String lossText(double percent) {
        return java.math.BigDecimal.valueOf(percent).round(new java.math.MathContext(12)).stripTrailingZeros().toPlainString() + "%";
    }

    private static String exact(long value, long unit) {
        return java.math.BigDecimal.valueOf(value).divide(java.math.BigDecimal.valueOf(unit)).stripTrailingZeros().toPlainString();
    }

    /** The properties as the file spells them, e.g. {@code rate 100mbit, delay 20ms ± 2ms, loss 1%, queue 1000}. */
    public String describe() {
        java.util.List<String> parts = new java.util.ArrayList<>();
        rateBitsPerSecond.ifPresent(rate -> parts.add("rate " + rateText(rate)));
        delay.ifPresent(d -> parts.add("delay " + durationText(d) + jitter.map(j -> " ± " + durationText(j)).orElse("")));
        lossPercent.ifPresent(loss -> parts.add("loss " + lossText(loss)));
        queuePackets.ifPresent(queue -> parts.add("queue " + queue));
        return parts.isEmpty() ? "unshaped" : String.join(", ", parts);
    }
}
