package io.periscope.dataplane.health;

import java.time.Instant;
import java.util.Optional;

/**
 * What one node knows of one gateway's health: a pure state machine fed one probe outcome at a time.
 *
 * @param up                whether traffic may use the gateway
 * @param consecutiveLosses probes in a row left unanswered (0 after any answer)
 * @param answeringSince    while down: when the current run of answers began (empty after a loss)
 * @param lastTransition    when {@code up} last changed (the start, for a gateway never seen to change)
 */
public record PeerHealth(boolean up, int consecutiveLosses, Optional<Instant> answeringSince, Instant lastTransition) {

    /** A gateway starts up, as the plan that names it says: traffic flows before the first probe returns. */
    public static PeerHealth initial(Instant now) {
        return new PeerHealth(true, 0, Optional.empty(), now);
    }

    /** The state after one more probe, answered or not, at {@code now}. */
    public PeerHealth after(boolean answered, Instant now, HealthSettings settings) {
        if (up) {
            if (answered) {
                return consecutiveLosses == 0 ? this : new PeerHealth(true, 0, Optional.empty(), lastTransition);
            }
            int losses = consecutiveLosses + 1;
            return losses >= settings.lossThreshold()
                    ? new PeerHealth(false, losses, Optional.empty(), now)
                    : new PeerHealth(true, losses, Optional.empty(), lastTransition);
        }
        if (!answered) {
            return new PeerHealth(false, consecutiveLosses + 1, Optional.empty(), lastTransition);
        }
        Instant since = answeringSince.orElse(now);
        // Back up only after answering without a gap for the whole hold-down period.
        return !now.isBefore(since.plus(settings.holdDown()))
                ? new PeerHealth(true, 0, Optional.empty(), now)
                : new PeerHealth(false, 0, Optional.of(since), lastTransition);
    }
}
