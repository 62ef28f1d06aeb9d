package io.periscope.lab.failover;

import io.periscope.dataplane.health.HealthSettings;

import java.time.Duration;

/**
 * How long a stream through a failed gateway keeps being sent into it, from the failure until the
 * node that chooses between gateways has withdrawn the dead nexthop: the simulator's account of
 * what health checking costs a stream (see docs/failover.md, "What a stream loses").
 *
 * <p>Derived from how the health checker runs ({@code HealthChecker}, {@code PeerHealth}): a round
 * probes every target at the start of each {@code interval} and waits out the interval for the
 * answers; a gateway is down once {@code lossThreshold} rounds in a row went unanswered. The failure
 * falls somewhere inside a round whose probe was already answered, so the first unanswered round
 * starts between 0 and one interval after it, and the last of the {@code lossThreshold} ends
 * {@code lossThreshold} intervals later: between {@code lossThreshold x interval} and
 * {@code (lossThreshold + 1) x interval} after the failure. The verdict then runs a pass that
 * reprograms one route or group, {@link #ROUTE_CHANGE}. Answers are taken to come back well within
 * an interval, as on the lab's links (a delayed link lengthens the interval, {@code LinkTimings}).
 *
 * @param earliest the shortest the failure can go unnoticed and unrouted around
 * @param latest   the longest
 */
public record FailoverLossWindow(Duration earliest, Duration latest) {

    /** A reconcile of one route or nexthop group on a node, as docs/failover.md measures it. */
    public static final Duration ROUTE_CHANGE = Duration.ofMillis(20);

    public FailoverLossWindow {
        if (latest.compareTo(earliest) < 0) {
            throw new IllegalArgumentException("the window cannot end (" + latest + ") before it starts (" + earliest + ")");
        }
    }

    /** The window the health checking {@code settings} give. */
    public static FailoverLossWindow of(HealthSettings settings) {
        Duration detectedEarliest = settings.interval().multipliedBy(settings.lossThreshold());
        Duration detectedLatest = settings.interval().multipliedBy(settings.lossThreshold() + 1L);
        return new FailoverLossWindow(detectedEarliest.plus(ROUTE_CHANGE), detectedLatest.plus(ROUTE_CHANGE));
    }

    /** The middle of the window: the failure is as likely at any moment of a probe round. */
    public Duration expected() {
        return earliest.plus(latest).dividedBy(2);
    }

    /** The datagrams a stream sending {@code perSecond} of them loses in the {@link #expected} window, to the nearest one. */
    public int expectedPackets(int perSecond) {
        return (int) Math.round(perSecond * seconds(expected()));
    }

    /** The fewest datagrams a stream sending {@code perSecond} of them can lose. */
    public int fewestPackets(int perSecond) {
        return (int) Math.floor(perSecond * seconds(earliest));
    }

    /** The most datagrams a stream sending {@code perSecond} of them can lose. */
    public int mostPackets(int perSecond) {
        return (int) Math.ceil(perSecond * seconds(latest));
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
