package io.periscope.lab.failover;

import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.health.PeerHealth;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FailoverLossWindow}: what a stream through a failed gateway loses, from the health checking's
 * timings, worked out by hand here and checked against the verdicts {@link PeerHealth} gives round by
 * round.
 */
class AFailedGatewaysStreamLosesWhatHealthCheckingTakesToNotice {

    /**
     * The defaults, 40 ms x 3: the third unanswered round ends 120 to 160 ms after the failure, and the
     * route change adds 20 ms: 140 to 180 ms, 160 ms in the middle. At 100 datagrams a second (the
     * acceptance scenarios' rate) that is 14 to 18 datagrams, 16 expected; at 1,000, 140 to 180.
     */
    @Test
    void theDefaultsLoseOneHundredFortyToOneHundredEightyMilliseconds() {
        FailoverLossWindow window = FailoverLossWindow.of(HealthSettings.DEFAULTS);

        assertThat(window.earliest()).isEqualTo(Duration.ofMillis(140));
        assertThat(window.latest()).isEqualTo(Duration.ofMillis(180));
        assertThat(window.expected()).isEqualTo(Duration.ofMillis(160));
        assertThat(window.expectedPackets(100)).isEqualTo(16);
        assertThat(window.fewestPackets(100)).isEqualTo(14);
        assertThat(window.mostPackets(100)).isEqualTo(18);
        assertThat(window.expectedPackets(1000)).isEqualTo(160);
    }

    /** Probes every 70 ms, down after 5: 350 to 420 ms to notice, 370 to 440 ms lost, 405 ms expected; 41 of 100 a second. */
    @Test
    void slowerProbingAndAHigherThresholdWidenTheWindow() {
        FailoverLossWindow window = FailoverLossWindow.of(new HealthSettings(Duration.ofMillis(70), 5, Duration.ofSeconds(2)));

        assertThat(window.earliest()).isEqualTo(Duration.ofMillis(370));
        assertThat(window.latest()).isEqualTo(Duration.ofMillis(440));
        assertThat(window.expected()).isEqualTo(Duration.ofMillis(405));
        assertThat(window.expectedPackets(100)).isEqualTo(41);
    }

    /**
     * The health checker's own state machine, fed one verdict per round (a round starts every interval
     * and is judged at its end), with the failure at every millisecond of a round: the gateway is
     * declared down within the window's detection part, never before and never after.
     */
    @Test
    void theWindowIsWherePeerHealthDeclaresTheGatewayDown() {
        HealthSettings settings = HealthSettings.DEFAULTS;
        FailoverLossWindow window = FailoverLossWindow.of(settings);
        long interval = settings.interval().toMillis();
        Instant start = Instant.parse("2026-11-28T00:00:00Z");
        for (long failedAt = interval; failedAt < 2 * interval; failedAt++) {
            PeerHealth health = PeerHealth.initial(start);
            long declaredDown = -1;
            for (long round = 0; declaredDown < 0 && round < 20; round++) {
                long sent = round * interval;
                long judged = sent + interval;
                // A probe sent before the failure was answered at once (the lab's round trips are well under a millisecond).
                boolean answered = sent < failedAt;
                health = health.after(answered, start.plusMillis(judged), settings);
                if (!health.up()) {
                    declaredDown = judged;
                }
            }
            long unnoticed = declaredDown - failedAt;
            assertThat(Duration.ofMillis(unnoticed).plus(FailoverLossWindow.ROUTE_CHANGE))
                    .as("failed %d ms into a round", failedAt - interval)
                    .isGreaterThanOrEqualTo(window.earliest()).isLessThanOrEqualTo(window.latest());
        }
    }
}
