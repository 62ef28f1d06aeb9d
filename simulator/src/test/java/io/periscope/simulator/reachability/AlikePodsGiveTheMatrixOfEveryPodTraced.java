package io.periscope.simulator.reachability;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;
import io.periscope.planner.Planner;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The matrix traced once per class of alike pods equals the matrix with every pod traced, on cluster
 * sets generated with seeded dice: with and without Globalnet, Globalnet 2.0 and legacy, pods spread
 * over namespaces and labels that GlobalEgressIPs select, pods placed outside their node's pod block,
 * exported headless services, and pods that are backends of the services they call (hairpins).
 */
class AlikePodsGiveTheMatrixOfEveryPodTraced {

    static IntStream seeds() {
        return IntStream.range(0, 40);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void classesGiveTheSameCellsAsTracingEveryPod(int seed) {
        Simulator simulator = new Simulator(Planner.plan(generate(new Random(seed))));

        ReachabilityMatrix classes = ReachabilityMatrix.of(simulator, MatrixProgress.NONE);
        ReachabilityMatrix everyPod = ReachabilityMatrix.everyPodTraced(simulator);

        assertThat(classes.sources()).isEqualTo(everyPod.sources());
        assertThat(classes.columns()).isEqualTo(everyPod.columns());
        for (int row = 0; row < everyPod.sources().size(); row++) {
            assertThat(classes.cells().get(row)).as("row %s (seed %d)", everyPod.sources().get(row), seed)
                    .isEqualTo(everyPod.cells().get(row));
        }
        assertThat(classes.traced()).isLessThanOrEqualTo(everyPod.traced());
    }

    @Test
    void podsOnOneNodeThatNoRuleTellsApartAreTracedOnce() {
        // Two clusters of two nodes, 20 pods each, 2 services with two backends each, no GlobalEgressIP:
        // per cluster and node one class, plus the backends where their own service's hairpin names them.
        ClusterSet set = new SyntheticClusterSet(2, 2, 1, 20, 2, 0, GlobalnetMode.V2, 10).build();
        Simulator simulator = new Simulator(Planner.plan(set));

        ReachabilityMatrix matrix = ReachabilityMatrix.of(simulator, MatrixProgress.NONE);

        long cells = (long) matrix.sources().size() * matrix.columns().size();
        assertThat(matrix.sources()).hasSize(40);
        assertThat(matrix.columns()).hasSize(4);
        // 4 classes (2 clusters x 2 nodes) x 4 services, and each service's 2 backends in its own cluster
        // (and their namesakes of the other cluster, whose chains name the same addresses) for that service.
        assertThat(matrix.traced()).isLessThan(cells / 3);
        assertThat(matrix.cells()).isEqualTo(ReachabilityMatrix.everyPodTraced(simulator).cells());
    }

    @Test
    void aSimulatorThatHashesPathsTracesEveryPod() {
        ClusterSet set = new SyntheticClusterSet(2, 2, 1, 8, 1, 0, GlobalnetMode.V2, 4).build();
        Simulator simulator = new Simulator(Planner.plan(set), MultipathMode.HASH);

        ReachabilityMatrix matrix = ReachabilityMatrix.of(simulator, MatrixProgress.NONE);

        assertThat(matrix.traced()).isEqualTo((long) matrix.sources().size() * matrix.columns().size());
        assertThat(matrix.cells()).isEqualTo(ReachabilityMatrix.everyPodTraced(simulator).cells());
    }

    @Test
    void progressCountsEveryCellOnce() {
        ClusterSet set = new SyntheticClusterSet(2, 2, 1, 6, 2, 0, GlobalnetMode.V2, 3).build();
        RecordedProgress progress = new RecordedProgress();

        ReachabilityMatrix matrix = ReachabilityMatrix.of(new Simulator(Planner.plan(set)), progress);

        assertThat(progress.total()).isEqualTo((long) matrix.sources().size() * matrix.columns().size());
        assertThat(progress.reported()).isSorted().last().isEqualTo(progress.total());
    }

    /** 2-3 clusters of 2-4 nodes with the synthetic set's wiring, half of the time shaken. */
    static ClusterSet generate(Random dice) {
        int nodes = 2 + dice.nextInt(3);
        int services = 1 + dice.nextInt(3);
        ClusterSet set = new SyntheticClusterSet(2 + dice.nextInt(2), nodes, 1 + dice.nextInt(Math.min(2, nodes)), 4 + dice.nextInt(12),
                services, dice.nextInt(4), dice.nextInt(4) == 0 ? GlobalnetMode.LEGACY : GlobalnetMode.V2,
                services + dice.nextInt(4)).build();
        // Unshaken, the clusters are alike: with Globalnet their pods share addresses, and one pod's
        // address is another cluster's service backend (kube-proxy chains naming it).
        if (dice.nextBoolean()) {
            List<Cluster> clusters = new ArrayList<>();
            for (Cluster cluster : set.clusters()) {
                clusters.add(shake(cluster, dice));
            }
            set = set.withClusters(clusters);
        }
        return dice.nextInt(3) == 0 ? withoutGlobalnet(set) : set;
    }

    /**
     * Pods get random namespaces and tiers (which GlobalEgressIPs select), a few move to another node
     * keeping their address, and half the clusters export a headless service.
     */
    private static Cluster shake(Cluster cluster, Random dice) {
        List<Pod> pods = new ArrayList<>();
        for (Pod pod : cluster.pods()) {
            Map<String, String> labels = new HashMap<>(pod.labels());
            labels.put("tier", dice.nextBoolean() ? "db" : "web");
            String node = dice.nextInt(10) == 0 ? cluster.nodes().get(dice.nextInt(cluster.nodes().size())).name() : pod.node();
            pods.add(new Pod(pod.name(), "ns-" + dice.nextInt(3), node, pod.ip(), labels, false));
        }
        List<Service> services = new ArrayList<>(cluster.services().stream()
                .map(s -> new Service(s.name(), "ns-" + dice.nextInt(3), s.clusterIp(), s.selector(), s.ports())).toList());
        List<ServiceExport> exports = new ArrayList<>(services.stream().map(s -> new ServiceExport(s.namespace(), s.name())).toList());
        if (dice.nextBoolean()) {
            services.add(new Service("headless", "ns-0", Optional.empty(), LabelSelector.ofLabels(Map.of("app", "app-0")),
                    List.of(new ServicePort(80, 8080, Protocol.TCP))));
            exports.add(new ServiceExport("ns-0", "headless"));
        }
        return new Cluster(cluster.name(), cluster.labels(), cluster.podCidrs(), cluster.serviceCidrs(), cluster.globalCidr(), cluster.cni(),
                cluster.multiActiveGateways(), cluster.clusterEgressIPs(), cluster.loadBalancing(), cluster.nodes(), pods, services, exports,
                cluster.globalEgressIPs().stream()
                        .map(e -> new io.periscope.model.topology.GlobalEgressIP(e.name(), "ns-" + dice.nextInt(3), e.podSelector(),
                                e.numberOfIPs()))
                        .toList());
    }

    /** The same clusters without Globalnet: cluster {@code c} moves to 10.c.0.0/16 and 100.c.0.0/16. */
    private static ClusterSet withoutGlobalnet(ClusterSet set) {
        List<Cluster> clusters = new ArrayList<>();
        for (int c = 0; c < set.clusters().size(); c++) {
            Cluster cluster = set.clusters().get(c);
            int second = c;
            List<Node> nodes = cluster.nodes().stream()
                    .map(n -> new Node(n.name(), n.ip(), moved(n.cniIp(), second), n.gateway(), n.publicIp())).toList();
            List<Pod> pods = cluster.pods().stream()
                    .map(p -> new Pod(p.name(), p.namespace(), p.node(), moved(p.ip(), second), p.labels(), p.hostNetwork())).toList();
            List<Service> services = cluster.services().stream()
                    .map(s -> new Service(s.name(), s.namespace(), s.clusterIp().map(ip -> moved(ip, second)), s.selector(), s.ports()))
                    .toList();
            clusters.add(new Cluster(cluster.name(), cluster.labels(), List.of(Ipv4Prefix.parse("10." + c + ".0.0/16")),
                    List.of(Ipv4Prefix.parse("100." + c + ".0.0/16")), Optional.empty(), cluster.cni(), cluster.multiActiveGateways(),
                    cluster.clusterEgressIPs(), cluster.loadBalancing(), nodes, pods, services, cluster.exports(), List.of()));
        }
        return new ClusterSet(set.name(), GlobalnetConfig.DISABLED, set.defaultCableDriver(), clusters, set.connectivityPolicies(),
                set.connectionPolicies(), set.flows());
    }

    private static Ipv4Address moved(Ipv4Address address, int second) {
        return new Ipv4Address((address.bits() & 0xff00ffff) | (second << 16));
    }
}
