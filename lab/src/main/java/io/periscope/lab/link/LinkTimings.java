package io.periscope.lab.link;

import io.periscope.dataplane.health.HealthSettings;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.Node;

import java.time.Duration;

/**
 * What a cluster set's links do to the lab's own round trips, for what waits on an answer: the
 * probe's sockets and the health checkers, whose 40 ms probes would all be late across a 20 ms cable
 * and whose three-in-a-row rule would call a lossy gateway dead.
 *
 * <p>A packet crosses at most six uplinks and one cable each way (a pod's node, its gateway in and
 * out, the cable, the far gateway in and out, the far pod's node), so with {@code U} the largest
 * delay plus jitter of any uplink and {@code C} that of any cable, no round trip waits longer than
 * {@code 2 (6U + C)}, and none is lost more often than twelve uplink crossings and two cable
 * crossings at their largest loss make it. A rate-limited link adds its queue: a link that TCP keeps
 * full holds a probe behind {@code queue} frames for {@code queue * 1514 * 8 / rate} seconds, and
 * drops what does not fit, taken as {@value #SATURATED_LOSS} of what crosses it; a round trip waits
 * behind the longest such queue once each way (there is one bottleneck per direction). Without
 * this, 32 connections through a 20mbit uplink (0.6 s of queue) made every probe late, the agents
 * withdrew the gateway they saw "dead", and the connections wandered over the other gateways.
 *
 * @param worstRoundTrip the longest a round trip can wait on the links (zero for links without delay)
 * @param worstLoss      the largest chance that a round trip is lost on the links (zero without loss)
 */
public record LinkTimings(Duration worstRoundTrip, double worstLoss) {

    public static final LinkTimings NONE = new LinkTimings(Duration.ZERO, 0);

    /** Uplink crossings of a one-way path at most, and cable crossings. */
    static final int UPLINKS_ONE_WAY = 6;
    /** The share of packets a rate-limited link that TCP keeps full drops: what a probe behind it risks. */
    static final double SATURATED_LOSS = 0.05;
    /** The largest frame a link's queue holds: a 1500-byte packet and its Ethernet header. */
    static final int FRAME_BYTES = 1514;
    /** The chance a healthy gateway is called dead within an hour of probing, which the loss threshold keeps under. */
    static final double FALSE_DOWN_PER_HOUR = 1e-3;

    public static LinkTimings of(ClusterSet set) {
        Duration uplink = Duration.ZERO;
        double uplinkLoss = 0;
        Duration queue = Duration.ZERO;
        for (Cluster cluster : set.clusters()) {
            for (Node node : cluster.nodes()) {
                LinkProperties link = node.link().uplink();
                uplink = max(uplink, worst(link));
                uplinkLoss = Math.max(uplinkLoss, link.lossProbability());
                queue = max(queue, queueing(link));
            }
        }
        Duration cable = Duration.ZERO;
        double cableLoss = 0;
        for (CableLink link : set.cables()) {
            cable = max(cable, worst(link.properties()));
            cableLoss = Math.max(cableLoss, link.properties().lossProbability());
            queue = max(queue, queueing(link.properties()));
        }
        Duration roundTrip = uplink.multipliedBy(UPLINKS_ONE_WAY).plus(cable).plus(queue).multipliedBy(2);
        double saturated = queue.isZero() ? 0 : SATURATED_LOSS;
        double through = Math.pow(1 - uplinkLoss, 2 * UPLINKS_ONE_WAY) * Math.pow(1 - cableLoss, 2) * Math.pow(1 - saturated, 2);
        return new LinkTimings(roundTrip, 1 - through);
    }

    private static Duration worst(LinkProperties link) {
        return link.delayOrZero().plus(link.jitter().orElse(Duration.ZERO));
    }

    /** How long a full queue in front of the link's rate holds a frame; zero for a link without a rate. */
    static Duration queueing(LinkProperties link) {
        if (link.rateBitsPerSecond().isEmpty()) {
            return Duration.ZERO;
        }
        long bits = (long) link.queuePackets().orElse(LinkPlan.DEFAULT_QUEUE) * FRAME_BYTES * 8;
        return Duration.ofNanos((long) (bits * 1e9 / link.rateBitsPerSecond().getAsLong()));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** How long to wait for an answer that {@code base} is enough for on unshaped links. */
    public Duration patience(Duration base) {
        return base.plus(worstRoundTrip);
    }

    /**
     * {@code base} as the links need it: probes at least a worst round trip and a margin apart (each is
     * waited for until the next is due), and a loss threshold at which a gateway that answers is called
     * dead less than once in a thousand hours of probing. The hold-down stays.
     */
    public HealthSettings health(HealthSettings base) {
        if (worstRoundTrip.isZero() && worstLoss == 0) {
            return base;
        }
        long wanted = worstRoundTrip.toMillis() + base.interval().toMillis() / 2;
        Duration interval = Duration.ofMillis(Math.max(base.interval().toMillis(), (wanted + 9) / 10 * 10));
        int threshold = base.lossThreshold();
        if (worstLoss >= 1) {
            return new HealthSettings(interval, threshold, base.holdDown());
        }
        if (worstLoss > 0) {
            double windowsPerHour = 3_600_000.0 / interval.toMillis();
            double target = FALSE_DOWN_PER_HOUR / windowsPerHour;
            threshold = Math.max(threshold, (int) Math.ceil(Math.log(target) / Math.log(worstLoss)));
        }
        return new HealthSettings(interval, threshold, base.holdDown());
    }
}
