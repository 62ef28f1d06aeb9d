package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The line an agent writes into its Gateway or RouteAgent status for a gateway: a gateway that stays
 * down through 100 more lost probes keeps the line it got when it went down, so the status is written
 * once per change of verdict and not once per probe round (every write sets off a pass in every agent
 * watching the object).
 */
class HealthMessageChangesOnlyWithTheVerdict {

    private static final HealthSettings SETTINGS = new HealthSettings(Duration.ofMillis(40), 3, Duration.ofSeconds(2));
    private static final HealthTarget GW_2 = new HealthTarget("cluster1/gw-2", Ipv4Address.parse("240.18.0.8"),
            Set.of(Ipv4Address.parse("240.18.0.8")));
    private static final Instant T0 = Instant.parse("2026-12-01T03:08:56Z");

    @Test
    void aGatewayDownForAHundredRoundsHasOneLineAndComingBackAddsTwo() {
        List<String> lines = new ArrayList<>();
        PeerHealth health = PeerHealth.initial(T0);
        long millis = 0;
        for (int round = 0; round < 103; round++) {
            millis += 40;
            health = health.after(false, T0.plusMillis(millis), SETTINGS);
            lines.add(HealthMessages.describe(GW_2, health, SETTINGS));
        }
        for (int round = 0; round < 60; round++) {
            millis += 40;
            health = health.after(true, T0.plusMillis(millis), SETTINGS);
            lines.add(HealthMessages.describe(GW_2, health, SETTINGS));
        }

        assertThat(health.up()).isTrue();
        assertThat(new LinkedHashSet<>(lines)).containsExactly(
                "up: answering ICMP probes to 240.18.0.8 every 40 ms (since 2026-12-01T03:08:56Z)",
                "down: 3 ICMP probes to 240.18.0.8 every 40 ms unanswered in a row (down since 2026-12-01T03:08:56.120Z);"
                        + " its routes are withdrawn",
                "down: 3 ICMP probes to 240.18.0.8 every 40 ms unanswered in a row (down since 2026-12-01T03:08:56.120Z);"
                        + " its routes are withdrawn; answering again since 2026-12-01T03:09:00.160Z, back after 2000 ms of answers",
                "up: answering ICMP probes to 240.18.0.8 every 40 ms (since 2026-12-01T03:09:02.160Z)");
    }
}
