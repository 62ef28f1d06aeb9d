package io.periscope.lab.failover;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "The simulator's prediction and the lab agree on which flows move", over generated cluster sets:
 * each case is a seed of {@link RandomClusterSet} with a cluster of several active gateways and UDP
 * flows from its pods, load-balanced by seed 004's option 1, 2 or 3 in turn. One of that cluster's
 * gateways (hosting none of the flows' pods) is blackholed in the running lab, its agents withdraw
 * it, and healed; the streams that changed gateway must be exactly those the simulator predicts from
 * their own 5-tuples, and every stream's gateways before, during and after must be the predicted ones.
 *
 * <p>CI runs {@value #DEFAULT_CASES} cases; {@code -Dperiscope.lab.failover.cases=N} runs N.
 */
class GeneratedFailoversMoveThePredictedFlows {

    static final int DEFAULT_CASES = 3;
    private static final GatewayLoadBalancing[] OPTIONS = GatewayLoadBalancing.values();

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    /** A generated set, the cluster whose gateway fails, the gateway, and its option. */
    record Case(long seed, ClusterSet set, String failed, GatewayLoadBalancing option) {
        @Override
        public String toString() {
            return "seed " + seed + ", " + failed + ", " + option.yamlName();
        }
    }

    static Stream<Arguments> cases() {
        int wanted = Integer.getInteger("periscope.lab.failover.cases", DEFAULT_CASES);
        List<Case> cases = new java.util.ArrayList<>();
        LongStream.range(0, 2000).takeWhile(seed -> cases.size() < wanted).forEach(seed -> caseOf(seed, OPTIONS[cases.size() % OPTIONS.length])
                .ifPresent(cases::add));
        return cases.stream().map(Arguments::of);
    }

    /**
     * The first cluster with two or more active gateways and UDP flows from pods on its nodes that are
     * no active gateway; its first gateway fails. Only those flows are kept, and the cluster uses {@code option}.
     */
    static Optional<Case> caseOf(long seed, GatewayLoadBalancing option) {
        ClusterSet generated = RandomClusterSet.generate(seed);
        for (Cluster cluster : generated.clusters()) {
            if (!cluster.multiActiveGateways() || cluster.activeGateways().size() < 2) {
                continue;
            }
            for (Node gateway : cluster.activeGateways()) {
                // Only pods on nodes that are no active gateway spread their flows over the gateways: a
                // pod on an active gateway leaves by its own node's cable whatever fails elsewhere.
                List<Flow> flows = generated.flows().stream().filter(f -> f.protocol() == Protocol.UDP)
                        .filter(f -> f.from() instanceof FlowSource.PodSource pod && pod.cluster().equals(cluster.name())
                                && cluster.pods().stream().noneMatch(p -> p.name().equals(pod.pod()) && p.namespace().equals(pod.namespace())
                                && cluster.activeGateways().stream().anyMatch(g -> g.name().equals(p.node()))))
                        .toList();
                if (!flows.isEmpty()) {
                    ClusterSet set = generated.withClusters(generated.clusters().stream()
                            .map(c -> c.name().equals(cluster.name()) ? c.withLoadBalancing(option) : c).toList());
                    set = set.withFlows(byAddress(set, flows));
                    return Optional.of(new Case(seed, set, cluster.name() + "/" + gateway.name(), option));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The flows with their targets as the addresses Lighthouse answers: the generator names a
     * service of one cluster ({@code cluster.service.namespace.svc.clusterset.local}), which the
     * resolver answers but a topology file does not accept, and the lab's supervisor reads the
     * topology from a file.
     */
    private static List<Flow> byAddress(ClusterSet set, List<Flow> flows) {
        Simulator simulator = new Simulator(Planner.plan(set));
        return flows.stream().map(flow -> {
            try {
                ResolvedFlow resolved = simulator.resolver().resolve(flow);
                return new Flow(flow.name(), flow.from(), new FlowTarget.AddressTarget(resolved.destination(), resolved.port()),
                        flow.protocol(), flow.expect());
            } catch (FlowResolutionException e) {
                throw new IllegalStateException(flow.name() + ": " + e.getMessage(), e);
            }
        }).toList();
    }

    @BeforeEach
    void needsRoot() {
        SupervisedLab.assumeRootAndNft();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theStreamsThatMoveAreThePredictedOnes(Case generated) {
        RunningLab lab = labs.up(RunningLab.forTest(generated.set(), "fo-" + generated.seed()));

        // Failure and recovery, for every option: a resilient group's recovery follows the buckets'
        // use as the kernel tracks it (KernelChoicesAreTheSimulatorsChoices).
        // Failed for 6 s: the streams' "during" phase starts once they are where the simulator says, and each node's
        // agents reroute on their own; on 2 busy cores some took over 2 s, past a 3 s failure's last chance.
        Optional<Duration> heal = Optional.of(Duration.ofSeconds(6));
        FailoverReport report = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover()).run(SupervisedLab.upLab(lab),
                new LabFailover.Options(generated.failed(), FailureMode.BLACKHOLE, 12, 100, 0, heal), line -> { });

        TreeSet<Integer> moved = new TreeSet<>(report.streams().stream().filter(FailoverReport.StreamResult::moved)
                .map(FailoverReport.StreamResult::id).toList());
        assertThat(report.prediction().differences()).as("%s: %s", generated, FailoverReportText.render(report)).isEmpty();
        assertThat(report.prediction().predictedToMove()).as("%s: streams predicted to move", generated).isNotEmpty();
        assertThat(moved).as("%s: streams that moved", generated).isEqualTo(report.prediction().predictedToMove());
        assertThat(lab.stateFile().read(lab.layout().names().hash()).orElseThrow().failures()).isEmpty();
    }
}
