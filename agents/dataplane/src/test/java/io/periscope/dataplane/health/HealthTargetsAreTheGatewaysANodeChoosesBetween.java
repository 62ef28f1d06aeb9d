package io.periscope.dataplane.health;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** Seed 004's flow with Globalnet: the example with two active gateways on each side. */
class HealthTargetsAreTheGatewaysANodeChoosesBetween {

    private static final ClusterSetPlan PLAN = plan();
    private static final Function<Ipv4Address, String> NAMES = HealthTargets.gatewayNames(PLAN);

    private static ClusterSetPlan plan() {
        try {
            return Planner.plan(TopologyLoader.load(Path.of("..", "..", "examples", "mag-globalnet.yaml")));
        } catch (io.periscope.model.load.TopologyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<HealthTarget> targetsOf(String cluster, String node) {
        return HealthTargets.of(PLAN.host(HostId.node(cluster, node)).orElseThrow().submariner(), NAMES);
    }

    @Test
    void aWorkerWatchesItsClustersActiveGatewaysOverVxSubmariner() {
        assertThat(targetsOf("cluster1", "worker-1")).containsExactly(
                new HealthTarget("cluster1/gw-1", Ipv4Address.parse("240.18.0.6"), java.util.Set.of(Ipv4Address.parse("240.18.0.6"))),
                new HealthTarget("cluster1/gw-2", Ipv4Address.parse("240.18.0.8"), java.util.Set.of(Ipv4Address.parse("240.18.0.8"))));
    }

    @Test
    void aGatewayWatchesTheRemoteGatewaysAtTheirCableAddresses() {
        assertThat(targetsOf("cluster1", "gw-1")).extracting(HealthTarget::gateway, t -> t.probe().toString())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cluster2/gw-3", "241.18.0.4"),
                        org.assertj.core.groups.Tuple.tuple("cluster2/gw-4", "241.18.0.9"));
    }
}
