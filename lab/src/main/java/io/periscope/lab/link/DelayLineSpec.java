package io.periscope.lab.link;

import java.time.Duration;
import java.util.Objects;

/**
 * One delay line the lab wants: the packets that an iptables rule in network namespace
 * {@code namespace} sends to netfilter queue {@code queueNumber} ({@code -j NFQUEUE --queue-num N})
 * are each held for {@code delay} plus a jitter sample (uniform in [-jitter, +jitter], the sum never
 * below 0) and then accepted.
 *
 * @param namespace   the network namespace (a name under {@code /run/netns}) whose rules queue the packets
 * @param queueNumber the netfilter queue, 0 to 65535; one delay line per queue and namespace
 * @param delay       how long each packet is held, 0 or more
 * @param jitter      how far each packet's holding time may stray from {@code delay} either way, 0 or more
 */
public record DelayLineSpec(String namespace, int queueNumber, Duration delay, Duration jitter) {

    public DelayLineSpec {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(delay, "delay");
        jitter = jitter == null ? Duration.ZERO : jitter;
        if (namespace.isBlank()) {
            throw new IllegalArgumentException("a delay line needs a network namespace");
        }
        if (queueNumber < 0 || queueNumber > 65535) {
            throw new IllegalArgumentException("queue number " + queueNumber + " is not between 0 and 65535");
        }
        if (delay.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("delay " + delay + " and jitter " + jitter + " cannot be negative");
        }
    }

    /** {@code namespace/queue}: how status and logs name the line. */
    public String key() {
        return namespace + "/" + queueNumber;
    }

    /** What the line holds packets for. */
    public LinkDelay linkDelay() {
        return new LinkDelay(delay, jitter);
    }
}
