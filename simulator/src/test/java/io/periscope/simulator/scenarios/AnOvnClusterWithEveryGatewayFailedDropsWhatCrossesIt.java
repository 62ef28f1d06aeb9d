package io.periscope.simulator.scenarios;

import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trace --fail} of the only gateway of an OVN-Kubernetes cluster: a what-if like any other, so
 * every flow through that cluster is traced and shown dropped with its reason (the planner once
 * looked for the chassis of submariner_router among no gateways and threw).
 */
class AnOvnClusterWithEveryGatewayFailedDropsWhatCrossesIt {

    private static FlowTrace traceWithout(String failed) throws Exception {
        ClusterSet set = TopologyLoader.parse(GlobalnetOnOvnFollowsSeed003.TOPOLOGY, "globalnet-ovn.yaml");
        Flow flow = new Flow("f", FlowEndpointSyntax.parseSource("east/default/web"),
                FlowEndpointSyntax.parseTarget("nginx.default.svc.clusterset.local:8080"), Protocol.TCP, Optional.empty());
        return new Simulator(Planner.planWithout(set, List.of(failed))).trace(flow);
    }

    @Test
    void theDestinationClustersGatewayFailedDropsTheFlowInTheSourceClusterWithItsReason() throws Exception {
        FlowTrace trace = traceWithout("west/west-gw");
        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(TraceText.render(trace)).isNotEqualTo(Disposition.DELIVERED);
            assertThat(path.reason()).as(TraceText.render(trace)).hasValueSatisfying(r -> assertThat(r).contains("242.1.255.254"));
        });
    }

    @Test
    void theSourceClustersGatewayFailedDropsTheFlowAtSubmarinerRouterWhichLeadsNowhere() throws Exception {
        FlowTrace trace = traceWithout("east/east-gw");
        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(TraceText.render(trace)).isNotEqualTo(Disposition.DELIVERED);
            assertThat(path.forward().getLast().node().toString()).isEqualTo("east/submariner_router");
            assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("east/ovn/submariner_gateway"));
        });
    }
}
