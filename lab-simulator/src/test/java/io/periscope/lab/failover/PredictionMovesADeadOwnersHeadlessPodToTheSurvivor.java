package io.periscope.lab.failover;

import io.periscope.lab.Examples;
import io.periscope.lab.layout.LabCables;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under per-gateway egress ownership a worker steers a headless pod to its owner's table, a route
 * with a single way out that withdrawing nexthops cannot move: the running agents plan again for
 * the owner down ({@code Planner.replan}), and the prediction must too. Without root: the streams of
 * {@code examples/mag-globalnet-egress.yaml}'s headless pod, from source ports of their own.
 */
class PredictionMovesADeadOwnersHeadlessPodToTheSurvivor {

    @Test
    void theDeadOwnersPodsStreamsArePredictedThroughTheSurvivorAndBackAfterTheHeal() throws Exception {
        ClusterSet set = LabCables.of(Examples.load(Examples.MAG_GLOBALNET_EGRESS)).set();
        ClusterSetPlan plan = Planner.plan(set);
        Cluster cluster1 = set.requireCluster("cluster1");
        Pod cache = cluster1.pods().stream().filter(p -> p.name().equals("cache-0")).findFirst().orElseThrow();
        String owner = "cluster1/" + HeadlessPodOwners.ownerOf(cluster1, cache).orElseThrow();
        String survivor = owner.equals("cluster1/gw-1") ? "cluster1/gw-2" : "cluster1/gw-1";
        ResolvedFlow flow = new Simulator(plan).resolver().resolve(set.flow("headless-pod-to-nginx").orElseThrow());
        List<FailoverPrediction.StreamFlow> streams = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            streams.add(new FailoverPrediction.StreamFlow(i, flow.source(), flow.sourceIp(), flow.destination(), flow.port(),
                    flow.protocol(), 40000 + i));
        }

        List<FailoverPrediction.PredictedStream> predicted = new SimulatorFailover().streams(plan, Map.of(), streams, owner, true, true);

        assertThat(predicted).hasSize(8).allSatisfy(p -> {
            assertThat(p.before()).as("stream %d before", p.id()).containsExactly(owner);
            assertThat(p.during()).as("stream %d while its owner is down", p.id()).containsExactly(survivor);
            assertThat(p.after()).as("stream %d after the heal", p.id()).containsExactly(owner);
        });
    }
}
