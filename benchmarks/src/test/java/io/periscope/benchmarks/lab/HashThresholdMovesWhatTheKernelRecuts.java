package io.periscope.benchmarks.lab;

import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The kernel's hash-threshold ranges, and what a leaving member moves, for the failover benchmark's expectation. */
class HashThresholdMovesWhatTheKernelRecuts {

    @Test
    void rangesEndWhereTheKernelEndsThem() {
        assertThat(HashThreshold.upperBounds(List.of(1, 1))).containsExactly((1L << 30) - 1, (1L << 31) - 1);
        // round(2^31 / 3) = 715827883 (2^31 = 2147483648), minus one.
        assertThat(HashThreshold.upperBounds(List.of(1, 1, 1))).containsExactly(715_827_882L, 1_431_655_764L, 2_147_483_647L);
    }

    @Test
    void fromThreeToTwoMovesAQuarterOfTheSurvivorsUnlessTheMiddleOneLeaves() {
        assertThat(HashThreshold.movedFraction(List.of(1, 1, 1), 0)).isCloseTo(0.25, within(1e-8));
        assertThat(HashThreshold.movedFraction(List.of(1, 1, 1), 1)).isZero();
        assertThat(HashThreshold.movedFraction(List.of(1, 1, 1), 2)).isCloseTo(0.25, within(1e-8));
        assertThat(HashThreshold.movedFraction(List.of(1, 1), 0)).isZero();

        // Four to three, the first leaving: [1/4,1/2) [1/2,3/4) [3/4,1) become thirds; [1/3,1/2) and
        // [2/3,3/4) change member, 1/6 + 1/12 of the space, a third of the survivors' 3/4.
        assertThat(HashThreshold.movedFraction(List.of(1, 1, 1, 1), 0)).isCloseTo(1.0 / 3, within(1e-8));
    }

    @Test
    void theWorkerOfTheThreeGatewayExampleChoosesInFileOrder() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "mag-3-gateways.yaml"));
        HostId worker = HostId.node("cluster1", "worker-1");
        ClusterSetPlan multipath = Planner.plan(TopologyLoader.parse(yaml, "three.yaml"));
        HashThreshold.Expectation first = HashThreshold.of(multipath, worker, "cluster1/gw-1").orElseThrow();
        assertThat(first.gateways()).containsExactly("cluster1/gw-1", "cluster1/gw-2", "cluster1/gw-3");
        assertThat(first.movedFraction()).isCloseTo(0.25, within(1e-8));
        assertThat(HashThreshold.of(multipath, worker, "cluster1/gw-2").orElseThrow().movedFraction()).isZero();

        ClusterSetPlan groups = Planner.plan(TopologyLoader.parse(yaml.replace("multipath-routes   #", "nexthop-groups   #"), "three.yaml"));
        assertThat(HashThreshold.of(groups, worker, "cluster1/gw-3").orElseThrow().movedFraction()).isCloseTo(0.25, within(1e-8));
        ClusterSetPlan resilient = Planner.plan(TopologyLoader.parse(yaml.replace("multipath-routes   #", "resilient-nexthop-groups   #"), "three.yaml"));
        HashThreshold.Expectation none = HashThreshold.of(resilient, worker, "cluster1/gw-1").orElseThrow();
        assertThat(none.resilient()).isTrue();
        assertThat(none.movedFraction()).isZero();
    }
}
