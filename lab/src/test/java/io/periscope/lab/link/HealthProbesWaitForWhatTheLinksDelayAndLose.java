package io.periscope.lab.link;

import io.periscope.dataplane.health.HealthSettings;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link LinkTimings}: the agents' health probes (every 40 ms, a gateway down after 3 unanswered in a
 * row) go further apart when the links delay their answers beyond that, and need more losses in a row
 * when the links lose probes, so that a gateway that answers is not called dead; the probe waits
 * the links' worst round trip longer.
 */
class HealthProbesWaitForWhatTheLinksDelayAndLose {

    @Test
    void plainLinksChangeNothing() {
        LinkTimings timings = LinkTimings.of(LinkedTopologies.twoClusters("t", "", "", ""));

        assertThat(timings).isEqualTo(LinkTimings.NONE);
        assertThat(timings.health(HealthSettings.DEFAULTS)).isSameAs(HealthSettings.DEFAULTS);
        assertThat(timings.patience(Duration.ofMillis(400))).isEqualTo(Duration.ofMillis(400));
    }

    /**
     * A rate-limited link that TCP keeps full holds a probe behind its whole queue: 1000 frames of 1514
     * bytes at 10mbit are 1.2112 s, at 5mbit 2.4224 s. The probes wait the longest queue once each way
     * and allow for the drops of a full link, so a gateway behind a busy uplink is not called dead.
     */
    @Test
    void rateLimitedLinksWaitForTheirQueues() {
        assertThat(LinkTimings.queueing(LinkedTopologies.twoClusters("t", "rate: 10mbit", "", "").requireCluster("east").nodes().stream()
                .map(n -> n.link().uplink()).filter(u -> u.rateBitsPerSecond().isPresent()).findFirst().orElseThrow()))
                .isEqualTo(Duration.ofNanos(1_211_200_000L));
        LinkTimings timings = LinkTimings.of(LinkedTopologies.twoClusters("t", "rate: 10mbit", "", "rate: 5mbit"));

        assertThat(timings.worstRoundTrip()).isEqualTo(Duration.ofNanos(2 * 2_422_400_000L));
        assertThat(timings.worstLoss()).isCloseTo(1 - 0.95 * 0.95, within(1e-12));
        HealthSettings health = timings.health(HealthSettings.DEFAULTS);
        assertThat(health.interval()).isGreaterThan(timings.worstRoundTrip());
        assertThat(health.lossThreshold()).isGreaterThan(HealthSettings.DEFAULTS.lossThreshold());
    }

    @Test
    void delayedLinksSpaceTheProbesBeyondTheWorstRoundTrip() {
        // Six uplink crossings of 5 ms + 1 ms jitter and one 20 ms cable each way: 2 x (36 + 20) = 112 ms.
        LinkTimings timings = LinkTimings.of(LinkedTopologies.twoClusters("t", "delay: 5ms, jitter: 1ms", "", "delay: 20ms"));

        assertThat(timings.worstRoundTrip()).isEqualTo(Duration.ofMillis(112));
        assertThat(timings.health(HealthSettings.DEFAULTS)).isEqualTo(new HealthSettings(Duration.ofMillis(140), 3, Duration.ofSeconds(2)));
        assertThat(timings.patience(Duration.ofMillis(400))).isEqualTo(Duration.ofMillis(512));
    }

    @Test
    void lossyLinksNeedMoreLossesInARowBeforeAGatewayIsDown() {
        ClusterSet lossy = LinkedTopologies.twoClusters("t", "loss: 1%", "", "");
        LinkTimings timings = LinkTimings.of(lossy);

        // Twelve crossings at 1%: 11.4% of round trips lost; 9 in a row happen less than once in a thousand hours at 25 probes a second.
        assertThat(timings.worstLoss()).isCloseTo(1 - Math.pow(0.99, 12), within(1e-12));
        assertThat(timings.health(HealthSettings.DEFAULTS)).isEqualTo(new HealthSettings(Duration.ofMillis(40), 9, Duration.ofSeconds(2)));
        assertThat(LinkTimings.of(LinkedTopologies.twoClusters("t", "loss: 10%", "", "")).health(HealthSettings.DEFAULTS).lossThreshold())
                .isEqualTo(56);
    }
}
