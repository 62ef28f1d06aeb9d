package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential test: cluster sets drawn from a seed (2 to 4 clusters, 1 to 3 gateways each,
 * Globalnet on for odd seeds and off for even ones, multiple active gateways on and off,
 * GlobalEgressIPs, exported ClusterIP and headless services), built in the lab, and a sample of their flows sent for real: every
 * connection must take a path the simulator shows, hop by hop and field by field, and end as the
 * simulator says. Any disagreement is a bug in the simulator, the planner or the agents.
 *
 * <p>CI runs {@value #DEFAULT_CASES} cases; {@code -Dperiscope.lab.cases=N} runs N, and
 * {@code -Dperiscope.lab.flows=M} probes M flows of each (default {@value #DEFAULT_FLOWS}).
 */
class GeneratedTopologiesAgreeWithTheSimulator {

    static final int DEFAULT_CASES = 2;
    static final int DEFAULT_FLOWS = 4;

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private RunningLab lab;

    static LongStream seeds() {
        return LongStream.range(0, Integer.getInteger("periscope.lab.cases", DEFAULT_CASES));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void realPacketsTakeOnlySimulatedPaths(long seed) {
        // Globalnet on for odd seeds, off for even ones: generate(seed) alone draws it on for every small seed.
        ClusterSet generated = RandomClusterSet.generate(seed, seed % 2 == 1);
        lab = labs.up(RunningLab.forTest(generated, "random-" + seed));
        List<Flow> flows = new ArrayList<>(generated.flows());
        Collections.shuffle(flows, new Random(seed));
        List<Flow> sample = flows.subList(0, Math.min(flows.size(), Integer.getInteger("periscope.lab.flows", DEFAULT_FLOWS)));

        assertThat(disagreements(sample, result -> { })).as("flows of seed %d where real packets and the simulator disagree", seed).isEmpty();
    }

    /** Probes each flow for real; returns the flows whose packets took a path the simulator does not show. */
    private List<String> disagreements(List<Flow> sample, java.util.function.Consumer<FlowProbeResult> alsoCheck) {
        List<String> disagreements = new ArrayList<>();
        for (Flow flow : sample) {
            FlowProbeResult result = lab.probe(Optional.of(flow.name()), SimulatorFlows::new).flows().getFirst();
            assertThat(result.problem()).as(flow.name()).isEmpty();
            if (!result.matchesSimulation()) {
                disagreements.add(flow.name() + ": " + result.firstDifference().map(d -> d.describe()).orElse("no connection matched"));
            }
            alsoCheck.accept(result);
        }
        return disagreements;
    }

    /**
     * Generated sets with several active gateways, Globalnet and GlobalEgressIPs or exported headless
     * services, with per-gateway egress ownership on: the flows of those clusters (the ones seed 004
     * as written breaks) are probed first, and every connection is delivered on a simulated path.
     */
    static LongStream perGatewaySeeds() {
        return LongStream.range(0, 400).filter(seed -> {
            ClusterSet set = RandomClusterSet.generate(seed);
            return set.globalnet().enabled() && set.clusters().stream().anyMatch(GeneratedTopologiesAgreeWithTheSimulator::hasUnpinnedEgress);
        }).limit(Integer.getInteger("periscope.lab.cases", DEFAULT_CASES));
    }

    private static boolean hasUnpinnedEgress(io.periscope.model.topology.Cluster cluster) {
        return cluster.multiActiveGateways() && cluster.activeGateways().size() > 1 && (!cluster.globalEgressIPs().isEmpty()
                || cluster.services().stream().anyMatch(s -> s.headless() && cluster.isExported(s)));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("perGatewaySeeds")
    void perGatewayEgressDeliversEveryConnectionOnASimulatedPath(long seed) {
        ClusterSet generated = RandomClusterSet.generate(seed);
        ClusterSet set = generated.withClusters(generated.clusters().stream()
                .map(c -> c.multiActiveGateways() ? c.withEgressOwnership(io.periscope.model.topology.EgressOwnership.PER_GATEWAY) : c)
                .toList());
        lab = labs.up(RunningLab.forTest(set, "pgw-" + seed));
        List<Flow> flows = new ArrayList<>(set.flows());
        Collections.shuffle(flows, new Random(seed));
        flows.sort(java.util.Comparator.comparing(f -> !hasUnpinnedEgress(set.requireCluster(f.from().cluster()))));
        List<Flow> sample = flows.subList(0, Math.min(flows.size(), Integer.getInteger("periscope.lab.flows", DEFAULT_FLOWS)));

        assertThat(disagreements(sample, result -> assertThat(result.attempts()).as(result.name()).allSatisfy(a -> assertThat(
                a.outcome().disposition()).as("%s from port %d: %s", result.name(), a.outcome().sourcePort(), a.outcome().problem())
                .isEqualTo("delivered")))).as("flows of seed %d where real packets and the simulator disagree", seed).isEmpty();
    }
}
