package io.periscope.dataplane.health;

/** A gateway's health in one line, for status objects and logs. */
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
        return "down: " + health.consecutiveLosses() + " " + probes + " unanswered (down since " + health.lastTransition()
                + "); its routes are withdrawn" + back;
    }
}
