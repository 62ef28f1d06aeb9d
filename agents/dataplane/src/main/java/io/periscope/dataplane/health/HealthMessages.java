package io.periscope.dataplane.health;

/**
 * A gateway's health in one line, for status objects and logs.
 *
 * <p>The line changes only when the verdict does (down, answering again, up): agents write it into
 * Gateway and RouteAgent status, every agent of the cluster set watches those objects, and a line
 * that counted the probes lost so far changed every round while a gateway was down, so each agent
 * rewrote its status once per pass and each write set off a pass in every watcher, a storm of
 * reconciles exactly while the traffic was moving away from the dead gateway (2026-12-01: worker-1's
 * RouteAgent and each gateway's status written about once a second through a 6 s failure on the
 * kubernetes-on-lab backend). Upstream's connection message is a fixed sentence too.
 */
public final class HealthMessages {

    private HealthMessages() {
    }

    public static String describe(HealthTarget target, PeerHealth health, HealthSettings settings) {
        String probes = "ICMP probes to " + target.probe() + " every " + settings.interval().toMillis() + " ms";
        if (health.up()) {
            return "up: answering " + probes + " (since " + health.lastTransition() + ")";
        }
        String back = health.answeringSince().map(since -> "; answering again since " + since + ", back after "
                + settings.holdDown().toMillis() + " ms of answers").orElse("");
        return "down: " + settings.lossThreshold() + " " + probes + " unanswered in a row (down since " + health.lastTransition()
                + "); its routes are withdrawn" + back;
    }
}
