package io.periscope.simulator.trace;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flow table's gateways column: one path's gateways, delivered or not. A path dropped on its way
 * lists the gateways its packet crossed before the drop, while {@link TunnelGateways#of} (what
 * failover compares) counts delivered paths only.
 */
class ADroppedPathListsTheGatewaysItCrossedBeforeTheDrop {

    @Test
    void withItsRemoteGatewayFailedAFlowListsItsLocalGatewayWhereItWasDropped() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "on-premise-vxlan-cloud-wireguard.yaml"));
        FlowTrace trace = new Simulator(Planner.planWithout(set, List.of("onprem2/onprem2-gw")))
                .trace(set.flow("analytics-to-inventory").orElseThrow());
        PathTrace path = trace.paths().getFirst();

        // The worker hands the packet to its gateway over vx-submariner; with no cable left to onprem2 the
        // gateway looks for the service address on its own segment, and nothing answers.
        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.forward().getLast().node()).hasToString("cloud/cloud-gw");
        assertThat(TunnelGateways.crossedBy(path)).containsExactly("cloud/cloud-gw");
        assertThat(TunnelGateways.of(trace.paths())).isEmpty();
    }
}
