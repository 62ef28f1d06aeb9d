package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code periscope check} on the two examples of seed 001: every expectation holds, the matrix shows each pair's driver. */
class CheckPassesOnTheSeed001Examples {

    private static String example(String name) {
        return Path.of("..", "examples", name).toString();
    }

    @Test
    void theClientServerPolicyConnectsEachClientToTheServerOnlyAndEveryExpectationHolds() {
        PeriscopeRun run = PeriscopeRun.of("check", example("client-server.yaml"));

        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("PASS client1-to-client2: 1 unreachable (expected unreachable)")
                .contains("PASS client1-to-db: 1 delivered (expected delivered)")
                .containsPattern("(?m)^  client1 +libreswan +- *$")
                .containsPattern("(?m)^  server +libreswan +libreswan *$")
                .contains("every expectation holds");
    }

    @Test
    void theOnPremiseClustersUseVxlanBetweenThemAndWireGuardToTheCloud() {
        PeriscopeRun run = PeriscopeRun.of("check", example("on-premise-vxlan-cloud-wireguard.yaml"));

        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).containsPattern("(?m)^  onprem1 +vxlan +wireguard *$")
                .containsPattern("(?m)^  cloud +wireguard +wireguard *$")
                .contains("every expectation holds");
    }

    @Test
    void theJsonReportGivesEachPairsDriverAndPasses() {
        PeriscopeRun run = PeriscopeRun.of("check", "--json", "--no-matrix", example("client-server.yaml"));

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("\"client2\" : \"-\"").contains("\"passed\" : true");
    }

    @Test
    void theTraceOfAnUnconnectedPairEndsUnreachableByPolicy() {
        PeriscopeRun run = PeriscopeRun.of("trace", example("client-server.yaml"), "--flow", "client1-to-client2");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("path 1 of 1: unreachable")
                .contains("no ClusterConnectivityPolicy connects client1 and client2");
    }
}
