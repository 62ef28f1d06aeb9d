package io.periscope.simulator.spread;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolver;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.routing.KernelMultipathHash;
import io.periscope.simulator.routing.MultipathHashSettings;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * examples/mag-vanilla.yaml: the client's connections to nginx leave cluster1 by gw-1 or gw-2 and
 * enter cluster2 by gw-3 or gw-4, as each node's kernel hashes them under its seed and the cluster's
 * hash policy, for each of the three ways of spreading over the gateways.
 */
class ConnectionsSpreadOverGatewaysByTheHashPolicy {

    private static final List<String> OPTIONS = List.of("multipath-routes", "nexthop-groups", "resilient-nexthop-groups");

    static ClusterSet vanilla(String policy, String option, String uplinks) throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "mag-vanilla.yaml"))
                .replace("multiActiveGateways: true", "multiActiveGateways: true\n    gatewayLoadBalancing: " + option
                        + "\n    multipathHashPolicy: " + policy)
                .replace("gateway: true}", "gateway: true" + uplinks + "}");
        return TopologyLoader.parse(yaml, "mag-vanilla-" + policy + ".yaml");
    }

    /** A seed per node, different on each: the spread must not depend on nodes hashing alike. */
    static Map<HostId, Integer> seeds(ClusterSetPlan plan) {
        Map<HostId, Integer> seeds = new HashMap<>();
        plan.hosts().keySet().forEach(h -> seeds.put(h, (h.toString().hashCode() & 0x7fffffff) | 1));
        return seeds;
    }

    private static GatewaySpread.Spread spread(ClusterSet set, int connections) throws Exception {
        ClusterSetPlan plan = Planner.plan(set);
        ResolvedFlow flow = new FlowResolver(plan).resolve(set.flow("client-to-nginx").orElseThrow());
        return GatewaySpread.of(plan, flow, GatewaySpread.ephemeralPorts(connections), seeds(plan));
    }

    @ParameterizedTest
    @ValueSource(strings = {"multipath-routes", "nexthop-groups", "resilient-nexthop-groups"})
    void underL4TheConnectionsOfOnePodPairSpreadOverEveryGatewayWithinTheSamplingError(String option) throws Exception {
        GatewaySpread.Spread spread = spread(vanilla("l4", option, ""), 400);

        assertThat(spread.addressesOnly()).isFalse();
        assertThat(spread.local()).extracting(s -> s.gateway().toString()).containsExactly("cluster1/gw-1", "cluster1/gw-2");
        assertThat(spread.remote()).extracting(s -> s.gateway().toString()).containsExactly("cluster2/gw-3", "cluster2/gw-4");
        for (GatewaySpread.GatewayShare share : concat(spread.local(), spread.remote())) {
            assertThat(share.expectedShare()).isEqualTo(0.5);
            assertThat(share.samplingError()).isEqualTo(Math.sqrt(0.25 / 400));
            // Three standard deviations: a deterministic sample, so this either always holds or never does.
            assertThat(Math.abs(share.share() - 0.5)).as("%s", share).isLessThanOrEqualTo(3 * share.samplingError());
        }
        assertThat(spread.local().stream().mapToInt(GatewaySpread.GatewayShare::connections).sum()).isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"l3", "l3-inner"})
    void underL3OnePodPairTakesOneGatewayEachWay(String policy) throws Exception {
        for (String option : OPTIONS) {
            GatewaySpread.Spread spread = spread(vanilla(policy, option, ""), 64);

            assertThat(spread.addressesOnly()).isTrue();
            assertThat(spread.local()).hasSize(2).filteredOn(s -> s.connections() == 64).hasSize(1)
                    .allSatisfy(s -> assertThat(s.expectedShare()).isEqualTo(1.0));
            assertThat(spread.local()).filteredOn(s -> s.connections() == 0).hasSize(1)
                    .allSatisfy(s -> assertThat(s.expectedShare()).isZero());
            assertThat(spread.remote()).filteredOn(s -> s.connections() == 64).hasSize(1);
            assertThat(concat(spread.local(), spread.remote())).allSatisfy(s -> assertThat(s.samplingError()).isZero());
        }
    }

    /**
     * Port by port, the local gateway is the one the worker's own route picks under the kernel's
     * hash with the worker's seed: the first nexthop of its multipath route toward cluster2 is gw-1's
     * vx-submariner address, the second gw-2's.
     */
    @Test
    void eachPortTakesTheGatewayTheWorkersKernelHashPicks() throws Exception {
        ClusterSet set = vanilla("l4", "multipath-routes", "");
        ClusterSetPlan plan = Planner.plan(set);
        ResolvedFlow flow = new FlowResolver(plan).resolve(set.flow("client-to-nginx").orElseThrow());
        Map<HostId, Integer> seeds = seeds(plan);
        List<Integer> ports = List.of(1000, 2000, 33000, 40000, 45001, 60999);
        int workerSeed = seeds.get(HostId.node("cluster1", "worker-1"));

        List<GatewaySpread.PortChoice> choices = GatewaySpread.perPort(plan, flow, ports, seeds);

        Set<String> seen = new HashSet<>();
        for (GatewaySpread.PortChoice choice : choices) {
            Packet packet = Packet.of(flow.sourceIp().orElseThrow(), flow.destination(), choice.sourcePort(), flow.port(), flow.protocol());
            // Two equal nexthops: the lower half of the 31-bit space is the first's.
            int hash = KernelMultipathHash.hash(MultipathHashSettings.L4, workerSeed, packet, true);
            String expected = hash <= (1 << 30) - 1 ? "cluster1/gw-1" : "cluster1/gw-2";
            assertThat(choice.localGateway()).map(HostId::toString).as("port %d", choice.sourcePort()).contains(expected);
            assertThat(choice.remoteGateway()).isPresent();
            seen.add(expected);
        }
        assertThat(seen).as("six ports over two gateways").hasSize(2);
    }

    @Test
    void theAggregateAddsTheRatesOfTheGatewaysThatCarryAConnectionCappedByTheRestOfThePath() throws Exception {
        String shaped = ", uplink: {rate: 100mbit}";
        GatewaySpread.Spread l4 = spread(vanilla("l4", "multipath-routes", shaped), 64);
        assertThat(l4.local()).allSatisfy(s -> assertThat(s.rate()).hasValue(100_000_000L));
        assertThat(l4.aggregate()).hasValue(200_000_000L);

        GatewaySpread.Spread l3 = spread(vanilla("l3", "multipath-routes", shaped), 64);
        assertThat(l3.aggregate()).hasValue(100_000_000L);

        ClusterSet capped = TopologyLoader.parse(Files.readString(Path.of("..", "examples", "mag-vanilla.yaml"))
                .replace("gateway: true}", "gateway: true, uplink: {rate: 100mbit}}")
                .replace("flows:", "cables:\n  - {between: [cluster1, cluster2], rate: 150mbit}\nflows:"), "capped.yaml");
        GatewaySpread.Spread cable = spread(capped, 64);
        assertThat(cable.otherBottleneck().orElseThrow().link()).isEqualTo("cable cluster1-cluster2");
        assertThat(cable.aggregate()).hasValue(150_000_000L);

        assertThat(spread(vanilla("l4", "multipath-routes", ""), 8).aggregate()).isEmpty();
    }

    @Test
    void learningGatewaysSendEachFrameOnceAndTheirRatesAddUp() throws Exception {
        GatewaySpread.Spread spread = spread(vanilla("l4", "multipath-routes", ", uplink: {rate: 20mbit}"), 64);

        // Seed 004's vxlan-tunnel learns towards cluster2's two active gateways: one copy per frame.
        assertThat(concat(spread.local(), spread.remote())).allSatisfy(s -> assertThat(s.copies()).isEqualTo(1));
        assertThat(spread.aggregate()).hasValue(40_000_000L);
    }

    @Test
    void aGatewayThatFloodsSendsAFrameToEveryAllZeroDestinationAndGivesItsRateOncePerCopy() throws Exception {
        // One active gateway per cluster, three clusters: vxlan-tunnel stays upstream's (nolearning), so
        // cluster1's gateway floods every frame for cluster2 to cluster3's gateway too.
        String yaml = Files.readString(Path.of("..", "examples", "mag-vanilla.yaml"))
                .replace("    multiActiveGateways: true\n", "")
                .replace("      - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}\n", "")
                .replace("      - {name: gw-4, ip: 172.18.0.9, cniIP: 10.2.192.0, gateway: true}\n", "")
                .replace("gateway: true}", "gateway: true, uplink: {rate: 20mbit}}")
                .replace("flows:", """
                          - name: cluster3
                            podCIDRs: [10.3.0.0/16]
                            serviceCIDRs: [100.3.0.0/16]
                            nodes:
                              - {name: gw-5, ip: 172.18.0.20, cniIP: 10.3.0.1, gateway: true}
                        flows:""");
        GatewaySpread.Spread spread = spread(TopologyLoader.parse(yaml, "three-clusters.yaml"), 16);

        assertThat(spread.local()).singleElement().satisfies(s -> {
            assertThat(s.gateway()).hasToString("cluster1/gw-1");
            assertThat(s.copies()).isEqualTo(2);
        });
        assertThat(spread.aggregate()).hasValue(10_000_000L);
    }

    @Test
    void aNodeThatFloodsToEveryLocalGatewayLeavesThemTheSlowestRateNotTheSum() throws Exception {
        ClusterSet set = vanilla("l4", "multipath-routes", ", uplink: {rate: 20mbit}");
        ClusterSetPlan planned = Planner.plan(set);
        // cluster1's worker with upstream's vx-submariner (nolearning): every frame goes to both gateways.
        HostId worker = HostId.node("cluster1", "worker-1");
        java.util.SortedMap<HostId, HostPlan> hosts = new java.util.TreeMap<>(planned.hosts());
        HostPlan w = hosts.get(worker);
        DataplanePlan s = w.submariner();
        DataplanePlan upstreams = new DataplanePlan(s.netfilter(), s.ipsets(), s.vxlanDevices().stream().map(d -> d.withLearning(false)).toList(),
                s.fdb(), s.neighbours(), s.nexthops(), s.nexthopGroups(), s.routes(), s.rules(), s.sysctls());
        hosts.put(worker, new HostPlan(w.id(), w.role(), w.node(), w.interfaces(), w.environment(), w.kubeProxy(), upstreams));
        ClusterSetPlan plan = new ClusterSetPlan(planned.clusterSet(), planned.endpoints(), hosts, planned.segments(), planned.serviceRecords(),
                planned.allocations(), planned.ovn());
        ResolvedFlow flow = new FlowResolver(plan).resolve(set.flow("client-to-nginx").orElseThrow());

        GatewaySpread.Spread flooding = GatewaySpread.of(plan, flow, GatewaySpread.ephemeralPorts(64), seeds(plan));

        assertThat(flooding.local()).allSatisfy(share -> assertThat(share.copies()).isEqualTo(1));
        assertThat(flooding.aggregate()).as("each gateway's uplink receives every frame").hasValue(20_000_000L);
        assertThat(spread(set, 64).aggregate()).as("the worker learning, as planned").hasValue(40_000_000L);
    }

    @Test
    void ephemeralPortsAreSpreadEvenlyAndTheSameEveryTime() {
        List<Integer> ports = GatewaySpread.ephemeralPorts(64);

        assertThat(ports).hasSize(64).doesNotHaveDuplicates().isSorted().isEqualTo(GatewaySpread.ephemeralPorts(64));
        assertThat(ports.getFirst()).isEqualTo(32768);
        assertThat(ports.getLast()).isLessThanOrEqualTo(60999).isGreaterThanOrEqualTo(60999 - 28232 / 64);
        assertThat(GatewaySpread.ephemeralPorts(28232)).doesNotHaveDuplicates().endsWith(60999);
        assertThatThrownBy(() -> GatewaySpread.ephemeralPorts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GatewaySpread.ephemeralPorts(28233)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<GatewaySpread.GatewayShare> concat(List<GatewaySpread.GatewayShare> a, List<GatewaySpread.GatewayShare> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
