package io.periscope.simulator;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.planner.Planner;
import io.periscope.simulator.engine.SuffixMemo;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Simulator#count} adds the count of a suffix its flow walked before wherever a branch reaches
 * the same state ({@link SuffixMemo}); what it counts must be what every branch walked in full gives:
 * each flow of every example, and every pod-to-service flow of generated sets of several gateways per
 * cluster, where a flow forks into dozens of paths whose replies meet again at the sender's gateway
 * (delivered there, or dropped by the gateway that has no conntrack entry for them).
 */
class CountedPathsEqualWalkedPaths {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleFlowCountsWhatItsWalkGives(Path example) throws IOException, TopologyException, FlowResolutionException {
        ClusterSet set = TopologyLoader.load(example);
        Simulator simulator = new Simulator(Planner.plan(set));
        for (Flow flow : set.flows()) {
            ResolvedFlow resolved;
            try {
                resolved = simulator.resolver().resolve(flow);
            } catch (NameNotAnswered e) {
                continue;
            }

            assertThat(simulator.count(resolved, null, new SuffixMemo())).as("%s: %s", example.getFileName(), flow.name())
                    .isEqualTo(walked(simulator, resolved));
        }
    }

    @Test
    void globalnetGatewaysReusingReplySuffixesCountWhatTheyWalk() throws FlowResolutionException {
        // 3 clusters of 2 gateways, every pod one of 12 backends of its service.
        assertEveryPodToServiceFlow(new SyntheticClusterSet(3, 4, 2, 24, 2, 1, GlobalnetMode.V2, 2).build());
    }

    @Test
    void legacyGlobalnetGatewaysReusingReplySuffixesCountWhatTheyWalk() throws FlowResolutionException {
        assertEveryPodToServiceFlow(new SyntheticClusterSet(3, 4, 2, 24, 2, 1, GlobalnetMode.LEGACY, 2).build());
    }

    @Test
    void threeGatewaysPerClusterCountWhatTheyWalk() throws FlowResolutionException {
        assertEveryPodToServiceFlow(new SyntheticClusterSet(2, 4, 3, 16, 2, 2, GlobalnetMode.V2, 2).build());
    }

    /** Every pod of the first cluster to every exported service; the memo must have reused something, or it was not tried. */
    private static void assertEveryPodToServiceFlow(ClusterSet set) throws FlowResolutionException {
        Simulator simulator = new Simulator(Planner.plan(set));
        Cluster from = set.clusters().getFirst();
        long reused = 0;
        int flows = 0;
        for (Pod pod : from.pods()) {
            for (Cluster to : set.clusters()) {
                for (ServiceExport export : to.exports()) {
                    Service service = to.service(export.namespace(), export.name()).orElseThrow();
                    String dns = to.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                    ResolvedFlow flow = simulator.resolver().resolve(pod.name() + " to " + dns,
                            new FlowSource.PodSource(from.name(), pod.namespace(), pod.name()),
                            new FlowTarget.DnsTarget(dns, service.ports().getFirst().port()), service.ports().getFirst().protocol());
                    SuffixMemo memo = new SuffixMemo();

                    PathCount counted = simulator.count(flow, null, memo);

                    assertThat(counted).as("%s", flow).isEqualTo(walked(simulator, flow));
                    reused += memo.reused();
                    flows++;
                }
            }
        }
        assertThat(flows).isPositive();
        assertThat(reused).as("suffixes reused over %d flows", flows).isPositive();
    }

    private static PathCount walked(Simulator simulator, ResolvedFlow flow) {
        List<PathTrace> paths = simulator.trace(flow);
        return new PathCount((int) paths.stream().filter(p -> p.disposition() == Disposition.DELIVERED).count(), paths.size());
    }
}
