package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** --fail of the node a flow's source pod runs on is a failure to report, not a usage error. */
class FailingTheNodeOfASourcePodBreaksItsFlows {

    private static final String VANILLA = Path.of("..", "examples", "mag-vanilla.yaml").toString();

    @Test
    void theFailoverReportSaysTheFlowBreaksAndWhy() {
        PeriscopeRun run = PeriscopeRun.of("trace", VANILLA, "--fail", "cluster1/worker-1");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("client-to-nginx: BREAKS",
                "why: its source pod cluster1/default/client ran on cluster1/worker-1, which failed (--fail)");
    }

    @Test
    void checkFailsTheFlowsExpectation() {
        PeriscopeRun run = PeriscopeRun.of("check", VANILLA, "--fail", "cluster1/worker-1", "--no-matrix");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("FAIL client-to-nginx: 1 unreachable (expected delivered)");
    }

    @Test
    void aFlowToAPodOfAFailedNodeIsTracedToTheAddressThePodHad() {
        PeriscopeRun run = PeriscopeRun.of("trace", VANILLA, "--from", "cluster1/default/client", "--to", "cluster2/default/nginx-7d4f:80",
                "--fail", "cluster2/worker-2");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("(10.2.128.5:80)").doesNotContain("1 delivered");
    }

    @Test
    void theConnectionsTableSaysDownWhenEveryGatewayOfASideFailed() {
        PeriscopeRun run = PeriscopeRun.of("check", VANILLA, "--fail", "cluster2/gw-3", "--fail", "cluster2/gw-4", "--no-matrix");

        String table = run.out().substring(run.out().indexOf("connections ("));
        assertThat(table.lines().skip(2).findFirst().orElseThrow()).contains("cluster1").contains("down").doesNotContain("vxlan");
    }
}
