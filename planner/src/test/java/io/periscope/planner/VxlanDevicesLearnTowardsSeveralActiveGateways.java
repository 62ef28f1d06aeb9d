package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway's {@code vxlan-tunnel} learns where a peer's MAC is exactly when a connected cluster has
 * several active gateways, and a non-gateway node's {@code vx-submariner} exactly when its own cluster
 * has (seed 004): there upstream's flood to every all-zero entry would send each frame once per
 * gateway. Elsewhere (a gateway's {@code vx-submariner}, one active gateway per cluster) the devices
 * stay as upstream creates them.
 */
class VxlanDevicesLearnTowardsSeveralActiveGateways {

    @Test
    void onlyTheGatewayWhosePeersClusterHasSeveralActiveGatewaysLearns() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-3-gateways.yaml");

        // cluster2's gw-4 sends to cluster1's three active gateways; they send to gw-4 alone.
        assertThat(learning(plan, "cluster2", "gw-4")).containsExactlyInAnyOrderEntriesOf(Map.of("vx-submariner", false, "vxlan-tunnel", true));
        for (String gateway : List.of("gw-1", "gw-2", "gw-3")) {
            assertThat(learning(plan, "cluster1", gateway)).as(gateway)
                    .containsExactlyInAnyOrderEntriesOf(Map.of("vx-submariner", false, "vxlan-tunnel", false));
        }
        // cluster1's worker sends to its three active gateways; cluster2's to its one.
        assertThat(learning(plan, "cluster1", "worker-1")).containsExactlyEntriesOf(Map.of("vx-submariner", true));
        assertThat(learning(plan, "cluster2", "worker-2")).containsExactlyEntriesOf(Map.of("vx-submariner", false));
    }

    @Test
    void withOneActiveGatewayPerClusterNothingLearns() {
        ClusterSetPlan plan = PlannedExamples.plan("path-mtu.yaml");

        assertThat(plan.hosts().values()).flatExtracting(h -> h.submariner().vxlanDevices()).isNotEmpty()
                .noneMatch(VxlanDevice::learning);
    }

    private static Map<String, Boolean> learning(ClusterSetPlan plan, String cluster, String node) {
        return submariner(plan, cluster, node).vxlanDevices().stream().collect(Collectors.toMap(VxlanDevice::name, VxlanDevice::learning));
    }
}
