package io.periscope.dataplane.health;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class PeerHealthDeclaresDownAfterTheThresholdAndUpAfterHoldDown {

    private static final HealthSettings SETTINGS = new HealthSettings(Duration.ofMillis(40), 3, Duration.ofSeconds(2));
    private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");

    private static Instant at(long millis) {
        return T0.plusMillis(millis);
    }

    @Test
    void twoLossesInARowKeepTheGatewayUpAndTheThirdTakesItDown() {
        PeerHealth health = PeerHealth.initial(T0).after(false, at(40), SETTINGS).after(false, at(80), SETTINGS);
        assertThat(health.up()).isTrue();
        assertThat(health.consecutiveLosses()).isEqualTo(2);

        PeerHealth down = health.after(false, at(120), SETTINGS);
        assertThat(down.up()).isFalse();
        assertThat(down.lastTransition()).isEqualTo(at(120));
    }

    @Test
    void anAnswerBetweenLossesStartsTheCountAgain() {
        PeerHealth health = PeerHealth.initial(T0)
                .after(false, at(40), SETTINGS).after(false, at(80), SETTINGS)
                .after(true, at(120), SETTINGS)
                .after(false, at(160), SETTINGS).after(false, at(200), SETTINGS);
        assertThat(health.up()).isTrue();
        assertThat(health.lastTransition()).isEqualTo(T0);
    }

    @Test
    void aDownGatewayComesBackOnlyAfterAnsweringForTheWholeHoldDown() {
        PeerHealth down = PeerHealth.initial(T0).after(false, at(40), SETTINGS).after(false, at(80), SETTINGS).after(false, at(120), SETTINGS);

        PeerHealth answering = down.after(true, at(1000), SETTINGS);
        assertThat(answering.up()).isFalse();
        assertThat(answering.after(true, at(2999), SETTINGS).up()).isFalse();

        PeerHealth back = answering.after(true, at(2999), SETTINGS).after(true, at(3000), SETTINGS);
        assertThat(back.up()).isTrue();
        assertThat(back.lastTransition()).isEqualTo(at(3000));
    }

    @Test
    void aLossDuringHoldDownStartsTheHoldDownAgain() {
        PeerHealth down = PeerHealth.initial(T0).after(false, at(40), SETTINGS).after(false, at(80), SETTINGS).after(false, at(120), SETTINGS);
        PeerHealth flapping = down.after(true, at(1000), SETTINGS).after(true, at(2500), SETTINGS)
                .after(false, at(2540), SETTINGS)
                .after(true, at(2580), SETTINGS);

        assertThat(flapping.after(true, at(3100), SETTINGS).up()).as("2 s from the first answer, but a loss came between").isFalse();
        assertThat(flapping.after(true, at(4580), SETTINGS).up()).isTrue();
    }

    @Test
    void theDefaultsDetectWithinBfdsFastSetting() {
        assertThat(HealthSettings.DEFAULTS.detectionTime()).isLessThanOrEqualTo(Duration.ofMillis(150));
    }
}
