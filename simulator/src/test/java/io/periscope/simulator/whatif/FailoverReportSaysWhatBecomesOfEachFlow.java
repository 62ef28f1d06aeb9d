package io.periscope.simulator.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover report of {@code trace --fail}, {@code check --fail} and the what-if view: per flow,
 * the gateways before and after (whatever the cable), and whether it keeps them, moves, breaks, or
 * was broken before the failure already.
 */
class FailoverReportSaysWhatBecomesOfEachFlow {

    private static FailoverReport report(String example, String failed, String... flows) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", example));
        Simulator healthy = new Simulator(Planner.plan(set));
        Simulator down = new Simulator(Planner.planWithout(set, List.of(failed)));
        List<FlowTrace> before = new ArrayList<>();
        List<FlowTrace> after = new ArrayList<>();
        for (String flow : flows) {
            before.add(healthy.trace(set.flow(flow).orElseThrow()));
            after.add(down.trace(set.flow(flow).orElseThrow()));
        }
        return FailoverReport.compare(before, after);
    }

    @Test
    void aFlowBrokenBeforeAndAfterIsStillBrokenNotKept() throws Exception {
        // No policy connects client1 and client2: the flow was unreachable before the server's gateway failed.
        FailoverReport report = report("client-server.yaml", "server/server-gw", "client1-to-client2");
        FailoverReport.Line line = report.lines().getFirst();

        assertThat(line.change()).isEqualTo(FailoverReport.Change.STILL_BROKEN);
        assertThat(line.verdict()).startsWith("still broken");
        assertThat(line.before()).isEmpty();
        JsonNode json = report.toJson().get(0);
        assertThat(json.path("change").asText()).isEqualTo("still-broken");
        assertThat(json.path("why").asText()).contains("no ClusterConnectivityPolicy connects client1 and client2");
    }

    @Test
    void aFlowThroughTheFailedGatewayBreaksAndSaysWhy() throws Exception {
        FailoverReport.Line line = report("client-server.yaml", "server/server-gw", "client1-to-db").lines().getFirst();

        assertThat(line.change()).isEqualTo(FailoverReport.Change.BREAKS);
        assertThat(line.before()).containsExactly("client1/client1-gw", "server/server-gw");
        assertThat(line.after()).isEmpty();
        assertThat(line.why()).isPresent();
        assertThat(report("client-server.yaml", "server/server-gw", "client1-to-db").toText())
                .contains("client1-to-db: BREAKS", "gateways before: client1/client1-gw, server/server-gw", "why: ");
    }

    @Test
    void aWireGuardFlowAwayFromTheFailureKeepsBothItsGateways() throws Exception {
        FailoverReport.Line line = report("on-premise-vxlan-cloud-wireguard.yaml", "onprem2/onprem2-gw", "frontend-to-analytics")
                .lines().getFirst();

        assertThat(line.change()).isEqualTo(FailoverReport.Change.KEEPS);
        assertThat(line.before()).containsExactly("onprem1/onprem1-gw", "cloud/cloud-gw");
        assertThat(line.after()).isEqualTo(line.before());
    }

    @Test
    void aFlowOfSeveralActiveGatewaysMovesToTheRemainingOnes() throws Exception {
        FailoverReport.Line line = report("mag-vanilla.yaml", "cluster1/gw-1", "client-to-nginx").lines().getFirst();

        assertThat(line.change()).isEqualTo(FailoverReport.Change.MOVES);
        assertThat(line.before()).contains("cluster1/gw-1");
        assertThat(line.after()).doesNotContain("cluster1/gw-1").contains("cluster1/gw-2");
        assertThat(line.verdict()).isEqualTo("moves to the remaining gateways");
    }
}
