package io.periscope.lab.link;

import io.periscope.model.net.Ipv4Address;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * One rule of the lab's link chains in a node's {@code mangle} table: drop a share of the packets
 * crossing a link, or hand them to the supervisor's delay line through an NFQUEUE queue.
 *
 * @param chain       {@link LinkChains#IN}, {@link LinkChains#OUT} or {@link LinkChains#CABLE}
 * @param in          the device packets arrive by ({@code -i})
 * @param out         the device packets leave by ({@code -o})
 * @param destination the address packets go to ({@code -d}), for a cable's
 * @param action      what happens to them
 */
public record LinkRule(String chain, Optional<String> in, Optional<String> out, Optional<Ipv4Address> destination, Action action) {

    /** What a link rule does with a packet it matches. */
    public sealed interface Action {
    }

    /**
     * Drops a packet with a probability, {@code -m statistic --mode random}: the kernel compares a
     * random 31-bit number with {@code units}, the probability times 2^31 rounded as iptables rounds it.
     */
    public record Drop(long units) implements Action {

        static final long ONE = 1L << 31;

        public static Drop probability(double probability) {
            if (probability < 0 || probability > 1) {
                throw new IllegalArgumentException("a probability is between 0 and 1, not " + probability);
            }
            return new Drop(Math.round(probability * ONE));
        }

        /** As {@code iptables-save} prints it: the stored value, 11 decimals, rounded from its exact value. */
        public String probabilityText() {
            return new BigDecimal(units).divide(BigDecimal.valueOf(ONE)).setScale(11, RoundingMode.HALF_EVEN).toPlainString();
        }

        public double probability() {
            return (double) units / ONE;
        }
    }

    /** Hands the packet to NFQUEUE queue {@code number} of the namespace, where the delay line holds it; none listening, it is dropped. */
    public record Queue(int number) implements Action {
    }

    /** The rule as {@code iptables-save} prints it, so that what is read back compares line by line. */
    public String saveLine() {
        StringBuilder line = new StringBuilder("-A ").append(chain);
        destination.ifPresent(d -> line.append(" -d ").append(d).append("/32"));
        in.ifPresent(i -> line.append(" -i ").append(i));
        out.ifPresent(o -> line.append(" -o ").append(o));
        switch (action) {
            case Drop drop -> line.append(" -m statistic --mode random --probability ").append(drop.probabilityText()).append(" -j DROP");
            case Queue queue -> line.append(" -j NFQUEUE --queue-num ").append(queue.number());
        }
        return line.toString();
    }
}
