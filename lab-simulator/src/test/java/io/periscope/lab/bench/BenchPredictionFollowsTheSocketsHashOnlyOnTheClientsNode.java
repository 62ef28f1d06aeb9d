package io.periscope.lab.bench;

import io.periscope.lab.Examples;
import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.layout.LabCables;
import io.periscope.labsimulator.SimulatorBench;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A TCP socket's packets carry its random flow hash, which L4 multipath hashing takes instead of the
 * 5-tuple's until the packet crosses a wire: the first choice on the client's side (its worker's
 * gateway, or a gateway's remote gateway when the client runs on it) is either nexthop by weight;
 * every later choice is the 5-tuple's under the choosing node's seed.
 */
class BenchPredictionFollowsTheSocketsHashOnlyOnTheClientsNode {

    private static final Ipv4Address NGINX = Ipv4Address.parse("242.254.2.254");

    private static ClusterSetPlan plan(String yaml) throws Exception {
        return Planner.plan(LabCables.of(TopologyLoader.parse(yaml, "bench.yaml")).set());
    }

    private static String magGlobalnet() throws Exception {
        return Files.readString(Examples.file(Examples.MAG_GLOBALNET));
    }

    /** A seed per node, the worker's as given. */
    private static Map<HostId, Integer> seeds(ClusterSetPlan plan, int workerSeed) {
        Map<HostId, Integer> seeds = new HashMap<>();
        plan.hosts().keySet().stream().filter(h -> !h.isPod())
                .forEach(h -> seeds.put(h, h.name().equals("worker-1") ? workerSeed : h.toString().hashCode() | 1));
        return seeds;
    }

    private static List<FailoverPrediction.StreamFlow> streams(String client, Ipv4Address from, int count) {
        String[] parts = client.split("/");
        List<FailoverPrediction.StreamFlow> streams = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            streams.add(new FailoverPrediction.StreamFlow(i, HostId.pod(parts[0], parts[1], parts[2]), Optional.of(from), NGINX, 80,
                    Protocol.TCP, 21000 + i));
        }
        return streams;
    }

    @Test
    void aClientOnAWorkerTakesEitherGatewayAndEachGatewayItsOwnRemote() throws Exception {
        ClusterSetPlan plan = plan(magGlobalnet());
        List<FailoverPrediction.StreamFlow> streams = streams("cluster1/default/client", Ipv4Address.parse("10.0.128.4"), 16);

        List<BenchPrediction.PredictedStream> predicted = new SimulatorBench().streams(plan, seeds(plan, 12345), streams);

        Set<String> remotes = new HashSet<>();
        for (BenchPrediction.PredictedStream stream : predicted) {
            assertThat(stream.socketHashedAt()).contains("cluster1/worker-1");
            assertThat(stream.routes()).extracting(r -> r.local().orElseThrow()).containsExactly("cluster1/gw-1", "cluster1/gw-2");
            assertThat(stream.routes()).allSatisfy(r -> {
                assertThat(r.probability()).isCloseTo(0.5, within(1e-12));
                assertThat(r.remote()).get().isIn("cluster2/gw-3", "cluster2/gw-4");
                assertThat(r.delivered()).isTrue();
            });
            assertThat(stream.localChance("cluster1/gw-1")).isCloseTo(0.5, within(1e-12));
            stream.routes().forEach(r -> remotes.add(r.remote().orElseThrow()));
        }
        assertThat(remotes).as("16 streams' 5-tuples reach both remote gateways").containsExactlyInAnyOrder("cluster2/gw-3", "cluster2/gw-4");
        // The worker's seed plays no part: its choice is the socket's.
        assertThat(new SimulatorBench().streams(plan, seeds(plan, 999), streams)).isEqualTo(predicted);
    }

    @Test
    void aClientOnAGatewayLeavesByItAndThrowsTheSocketsDiceForTheRemoteOne() throws Exception {
        ClusterSetPlan plan = plan(magGlobalnet().replace("node: worker-1, ip: 10.0.128.4", "node: gw-1, ip: 10.0.0.4"));

        List<BenchPrediction.PredictedStream> predicted = new SimulatorBench().streams(plan, seeds(plan, 1),
                streams("cluster1/default/client", Ipv4Address.parse("10.0.0.4"), 4));

        assertThat(predicted).allSatisfy(stream -> {
            assertThat(stream.socketHashedAt()).contains("cluster1/gw-1");
            assertThat(stream.routes()).extracting(BenchPrediction.Route::describe)
                    .containsExactly("cluster1/gw-1 > cluster2/gw-3", "cluster1/gw-1 > cluster2/gw-4");
            assertThat(stream.localChance("cluster1/gw-1")).isCloseTo(1, within(1e-12));
        });
    }

    @Test
    void withOneActiveGatewayTheWorkerHasNoChoiceAndTheGatewayHashesTheFiveTuple() throws Exception {
        ClusterSetPlan plan = plan(magGlobalnet().replaceFirst("multiActiveGateways: true\n    clusterEgressIPs: 8", "multiActiveGateways: false"));

        List<BenchPrediction.PredictedStream> predicted = new SimulatorBench().streams(plan, seeds(plan, 1),
                streams("cluster1/default/client", Ipv4Address.parse("10.0.128.4"), 16));

        Set<String> remotes = new HashSet<>();
        assertThat(predicted).allSatisfy(stream -> {
            assertThat(stream.socketHashedAt()).isEmpty();
            assertThat(stream.routes()).hasSize(1);
            assertThat(stream.routes().getFirst().local()).contains("cluster1/gw-1");
            assertThat(stream.routes().getFirst().probability()).isEqualTo(1);
            remotes.add(stream.routes().getFirst().remote().orElseThrow());
        });
        assertThat(remotes).containsExactlyInAnyOrder("cluster2/gw-3", "cluster2/gw-4");
    }

    @Test
    void aMeasurementIsAllowedWhenEachLegIsAPredictedRoutes() {
        BenchPrediction.PredictedStream stream = new BenchPrediction.PredictedStream(0, List.of(
                new BenchPrediction.Route(Optional.of("c1/gw-1"), Optional.of("c2/gw-3"), 0.5, true),
                new BenchPrediction.Route(Optional.of("c1/gw-2"), Optional.of("c2/gw-4"), 0.5, true)), Optional.of("c1/worker"));

        assertThat(stream.allows(new GatewayPassage(Set.of("c1/gw-1"), Set.of("c2/gw-3")))).isTrue();
        assertThat(stream.allows(new GatewayPassage(Set.of("c1/gw-2"), Set.of("c2/gw-4")))).isTrue();
        assertThat(stream.allows(new GatewayPassage(Set.of("c1/gw-1"), Set.of("c2/gw-4")))).as("gw-1 hashes this tuple to gw-3").isFalse();
        assertThat(stream.allows(new GatewayPassage(Set.of("c1/gw-1", "c1/gw-2"), Set.of("c2/gw-3", "c2/gw-4"))))
                .as("moved from one predicted route to the other").isTrue();
        assertThat(stream.allows(new GatewayPassage(Map.of("c1/gw-1", 100L, "c1/gw-2", 900L), Map.of("c2/gw-4", 990L, "c2/gw-3", 90L))))
                .as("mostly by gw-2 > gw-4").isTrue();
        assertThat(stream.allows(new GatewayPassage(Map.of("c1/gw-1", 900L, "c1/gw-2", 100L), Map.of("c2/gw-4", 990L, "c2/gw-3", 90L))))
                .as("mostly by gw-1, and gw-4's bytes came after gw-2").isTrue();
        assertThat(stream.allows(new GatewayPassage(Map.of("c1/gw-1", 900L), Map.of("c2/gw-4", 990L)))).as("only gw-1, whose remote is gw-3").isFalse();
        assertThat(stream.allows(new GatewayPassage(Set.of("c1/gw-1"), Set.of()))).as("the remote gateway recorded nothing").isFalse();
        assertThat(stream.allows(new GatewayPassage(Set.of(), Set.of()))).isFalse();
        assertThat(stream.describe()).isEqualTo("c1/gw-1 > c2/gw-3 or c1/gw-2 > c2/gw-4");
    }
}
