package io.periscope.simulator;

import io.periscope.model.generate.RandomClusterSet;
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
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import io.periscope.planner.Planner;
import io.periscope.simulator.engine.CableSegments;
import io.periscope.simulator.engine.SuffixMemo;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
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
        assertEveryPodToServiceFlow(new SyntheticClusterSet(3, 4, 2, 24, 2, 1, GlobalnetMode.V2, 2).build(), true);
    }

    @Test
    void legacyGlobalnetGatewaysReusingReplySuffixesCountWhatTheyWalk() throws FlowResolutionException {
        // Legacy Globalnet gives every pod its own global address: no two pods' packets meet in the remote cluster.
        assertEveryPodToServiceFlow(new SyntheticClusterSet(3, 4, 2, 24, 2, 1, GlobalnetMode.LEGACY, 2).build(), false);
    }

    @Test
    void threeGatewaysPerClusterCountWhatTheyWalk() throws FlowResolutionException {
        assertEveryPodToServiceFlow(new SyntheticClusterSet(2, 4, 3, 16, 2, 2, GlobalnetMode.V2, 2).build(), true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void randomTopologiesSharingSegmentsAcrossFlowsCountWhatTheyWalkAndTellTheSameChains(int seed) throws FlowResolutionException {
        int flows = 0;
        for (boolean globalnet : new boolean[] {true, false}) {
            ClusterSet set = RandomClusterSet.generate(seed, globalnet);
            Simulator simulator = new Simulator(Planner.plan(set));
            for (Cluster to : set.clusters()) {
                for (ServiceExport export : to.exports()) {
                    Service service = to.service(export.namespace(), export.name()).orElseThrow();
                    if (service.headless() || service.ports().isEmpty()) {
                        continue;
                    }
                    String dns = to.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                    CableSegments segments = new CableSegments();
                    CableSegments selectiveSegments = new CableSegments();
                    for (Cluster from : set.clusters()) {
                        for (Pod pod : from.pods()) {
                            if (pod.hostNetwork()) {
                                continue;
                            }
                            ResolvedFlow flow;
                            try {
                                flow = simulator.resolver().resolve(pod.name() + " to " + dns, new FlowSource.PodSource(from.name(),
                                        pod.namespace(), pod.name()), new FlowTarget.DnsTarget(dns, service.ports().getFirst().port()),
                                        service.ports().getFirst().protocol());
                            } catch (NameNotAnswered e) {
                                continue;
                            }

                            Set<List<Object>> toldShared = new HashSet<>();
                            Set<List<Object>> toldWalked = new HashSet<>();
                            PathCount shared = simulator.count(flow, (host, table, chain, packet) -> toldShared.add(List.of(host, table, chain,
                                    packet)), segments);
                            simulator.trace(flow, (host, table, chain, packet) -> toldWalked.add(List.of(host, table, chain, packet)));

                            assertThat(shared).as("seed %d, Globalnet %s: %s", seed, globalnet, flow).isEqualTo(walked(simulator, flow));
                            assertThat(toldShared).as("chains entered, seed %d, Globalnet %s: %s", seed, globalnet, flow)
                                    .isEqualTo(toldWalked);

                            // An observer that ignores some chains (as the matrix's ignores those naming no pod)
                            // is told, through the segments kept without them, of every other chain walked.
                            Set<List<Object>> toldSelective = new HashSet<>();
                            PathCount selective = simulator.count(flow, new ChainObserver() {
                                @Override
                                public void entered(HostId host, Table table, String chain, Packet packet) {
                                    assertThat(ignores(host, table, chain)).as("told of an ignored chain %s", chain).isFalse();
                                    toldSelective.add(List.of(host, table, chain, packet));
                                }

                                @Override
                                public boolean ignores(HostId host, Table table, String chain) {
                                    return (chain.hashCode() & 1) == 0;
                                }
                            }, selectiveSegments);
                            assertThat(selective).as("ignoring chains, seed %d, Globalnet %s: %s", seed, globalnet, flow).isEqualTo(shared);
                            assertThat(toldSelective).as("chains not ignored, seed %d, Globalnet %s: %s", seed, globalnet, flow)
                                    .isEqualTo(toldWalked.stream().filter(c -> (c.get(2).hashCode() & 1) != 0).collect(Collectors.toSet()));
                            flows++;
                        }
                    }
                }
            }
        }
        assertThat(flows).isPositive();
    }

    /**
     * Every pod of the first cluster to every exported service, counted alone and with the segments
     * walked in the service's cluster shared by all those pods ({@link io.periscope.simulator.engine.CableSegments},
     * as the reachability matrix shares them); the suffix memo must have reused something, or it was not
     * tried, and so must the segments where pods share an egress address ({@code segmentsMeet}).
     */
    private static void assertEveryPodToServiceFlow(ClusterSet set, boolean segmentsMeet) throws FlowResolutionException {
        Simulator simulator = new Simulator(Planner.plan(set));
        Cluster from = set.clusters().getFirst();
        long reused = 0;
        long segmentsReused = 0;
        int flows = 0;
        for (Cluster to : set.clusters()) {
            for (ServiceExport export : to.exports()) {
                Service service = to.service(export.namespace(), export.name()).orElseThrow();
                String dns = to.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                CableSegments segments = new CableSegments();
                for (Pod pod : from.pods()) {
                    ResolvedFlow flow = simulator.resolver().resolve(pod.name() + " to " + dns,
                            new FlowSource.PodSource(from.name(), pod.namespace(), pod.name()),
                            new FlowTarget.DnsTarget(dns, service.ports().getFirst().port()), service.ports().getFirst().protocol());
                    SuffixMemo memo = new SuffixMemo();

                    PathCount counted = simulator.count(flow, null, memo);
                    PathCount shared = simulator.count(flow, null, segments);

                    PathCount walked = walked(simulator, flow);
                    assertThat(counted).as("%s", flow).isEqualTo(walked);
                    assertThat(shared).as("%s, segments shared with the flows before it", flow).isEqualTo(walked);
                    reused += memo.reused();
                    flows++;
                }
                segmentsReused += segments.reused();
            }
        }
        assertThat(flows).isPositive();
        assertThat(reused).as("suffixes reused over %d flows", flows).isPositive();
        if (segmentsMeet) {
            assertThat(segmentsReused).as("segments reused over %d flows", flows).isPositive();
        }
    }

    private static PathCount walked(Simulator simulator, ResolvedFlow flow) {
        List<PathTrace> paths = simulator.trace(flow);
        return new PathCount((int) paths.stream().filter(p -> p.disposition() == Disposition.DELIVERED).count(), paths.size());
    }
}
