package io.periscope.simulator.trace;

import io.periscope.model.topology.LinkProperties;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the shaped links one direction of a path crosses add up to: the one-way delay (the sum of
 * their delays), the spread around it (the sum of their jitters: the worst case, when every link
 * delays a packet by its most), the bottleneck (the slowest rate, and which link has it) and the
 * chance that a packet is lost on the way ({@code 1 - prod(1 - p)}, the links losing independently).
 * {@code crossed} lists every link crossing in order, shaped or not, each link as often as the packet
 * crosses it.
 */
public record LinkFigures(List<Crossing> crossed, Duration delay, Duration jitter, Optional<Bottleneck> bottleneck,
                          double lossProbability) {

    /** One crossing of a link: {@code cluster1/gw-1 uplink} or {@code cable cluster1-cluster2}. */
    public record Crossing(String link, LinkProperties properties) {
    }

    /** The slowest rate crossed and the first link that has it. */
    public record Bottleneck(long bitsPerSecond, String link) {
    }

    public LinkFigures {
        crossed = List.copyOf(crossed);
    }

    public static LinkFigures of(List<Crossing> crossed) {
        Duration delay = Duration.ZERO;
        Duration jitter = Duration.ZERO;
        Bottleneck bottleneck = null;
        double delivered = 1;
        for (Crossing crossing : crossed) {
            LinkProperties p = crossing.properties();
            delay = delay.plus(p.delayOrZero());
            jitter = jitter.plus(p.jitter().orElse(Duration.ZERO));
            if (p.rateBitsPerSecond().isPresent() && (bottleneck == null || p.rateBitsPerSecond().getAsLong() < bottleneck.bitsPerSecond())) {
                bottleneck = new Bottleneck(p.rateBitsPerSecond().getAsLong(), crossing.link());
            }
            delivered *= 1 - p.lossProbability();
        }
        return new LinkFigures(crossed, delay, jitter, Optional.ofNullable(bottleneck), 1 - delivered);
    }

    /** Whether any link crossed has a property: otherwise there is nothing to tell. */
    public boolean shaped() {
        return crossed.stream().anyMatch(c -> !c.properties().isEmpty());
    }

    /** {@code one-way 25ms (± 3ms), bottleneck 100mbit at cluster1/gw-1 uplink, loss 1%}. */
    public String text(String delayName) {
        StringBuilder text = new StringBuilder(delayName).append(' ').append(LinkProperties.durationText(delay));
        if (!jitter.isZero()) {
            text.append(" (± ").append(LinkProperties.durationText(jitter)).append(')');
        }
        bottleneck.ifPresent(b -> text.append(", bottleneck ").append(LinkProperties.rateText(b.bitsPerSecond())).append(" at ").append(b.link()));
        text.append(", loss ").append(LinkProperties.lossText(lossProbability * 100));
        return text.toString();
    }
}
