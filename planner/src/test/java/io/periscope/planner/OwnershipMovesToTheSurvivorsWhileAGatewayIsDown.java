package io.periscope.planner;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.Names;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership while a node's health checker considers a gateway down: the planner,
 * given the down gateways, moves that gateway's headless pods (and only those) to the owners hashing
 * picks among the survivors, on the pods' node and on every remote gateway, the same owners
 * {@code trace --fail} predicts; the down gateway keeps its ClusterGlobalEgressIP and slices, and with
 * no gateway down the plan is the plan again.
 */
class OwnershipMovesToTheSurvivorsWhileAGatewayIsDown {

    private static final String DOWN = "cluster1/gw-2";
    private static final int PODS = 30;

    private final ClusterSet set = PlannedExamples.parse(topology());
    private final ClusterSetPlan healthy = Planner.plan(set);
    private final ClusterSetPlan gw2Down = Planner.replan(healthy, DownGateways.of(List.of(DOWN)));
    private final Cluster cluster1 = set.requireCluster("cluster1");

    private static String topology() {
        StringBuilder pods = new StringBuilder();
        for (int i = 0; i < PODS; i++) {
            pods.append("      - {name: cache-").append(i).append(", namespace: default, node: worker-1, ip: 10.0.200.").append(10 + i)
                    .append(", labels: {app: cache}}\n");
        }
        return """
                name: ownership-moves
                globalnet: {enabled: true, cidr: 242.254.0.0/16, clusterSize: 256}
                defaults: {cableDriver: vxlan}
                clusters:
                  - name: cluster1
                    podCIDRs: [10.0.0.0/16]
                    serviceCIDRs: [100.0.0.0/16]
                    globalCIDR: 242.254.1.0/24
                    multiActiveGateways: true
                    egressOwnership: per-gateway
                    nodes:
                      - {name: gw-1, ip: 172.18.1.1, cniIP: 10.0.32.1, gateway: true}
                      - {name: gw-2, ip: 172.18.1.2, cniIP: 10.0.64.1, gateway: true}
                      - {name: gw-3, ip: 172.18.1.3, cniIP: 10.0.96.1, gateway: true}
                      - {name: worker-1, ip: 172.18.1.100, cniIP: 10.0.200.1}
                    pods:
                %s
                    services:
                      - {name: cache, namespace: default, headless: true, selector: {app: cache}, ports: [{port: 6379, targetPort: 6379, protocol: TCP}]}
                    exports: [default/cache]
                    globalEgressIPs:
                      - {name: ns-egress, namespace: default, numberOfIPs: 2}
                  - name: cluster2
                    podCIDRs: [10.0.0.0/16]
                    serviceCIDRs: [100.0.0.0/16]
                    globalCIDR: 242.254.2.0/24
                    multiActiveGateways: true
                    nodes:
                      - {name: gw-a, ip: 172.18.2.1, cniIP: 10.0.32.1, gateway: true}
                      - {name: gw-b, ip: 172.18.2.2, cniIP: 10.0.64.1, gateway: true}
                      - {name: worker-2, ip: 172.18.2.100, cniIP: 10.0.200.1}
                    pods:
                      - {name: nginx, namespace: default, node: worker-2, ip: 10.0.200.5, labels: {app: nginx}}
                """.formatted(pods.toString().stripTrailing());
    }

    private List<Pod> pods() {
        return cluster1.pods();
    }

    private Ipv4Address address(Pod pod) {
        return new AllocatedGlobalAddresses(healthy.allocations()).headlessPodIngress("cluster1", pod.namespace(), pod.name()).orElseThrow();
    }

    /** The table the worker's pref-140 rule sends the pod to. */
    private static int ownerTable(ClusterSetPlan plan, Pod pod) {
        return submariner(plan, "cluster1", "worker-1").rules().stream()
                .filter(r -> r.priority() == Names.EGRESS_OWNER_RULE_PRIORITY && r.from().equals(Optional.of(Ipv4Prefix.host(pod.ip()))))
                .map(PolicyRule::table).findFirst().orElseThrow(() -> new AssertionError("no owner rule for " + pod.name()));
    }

    private int tableOf(String gateway) {
        List<String> names = cluster1.activeGateways().stream().map(n -> n.name()).toList();
        return Names.EGRESS_OWNER_TABLE_BASE + names.indexOf(gateway);
    }

    /** The gateway a remote gateway's metric-98 route sends an address to, as its vxlan-tunnel address. */
    private static Optional<Ipv4Address> remoteRoute(ClusterSetPlan plan, String remoteGateway, Ipv4Address address) {
        return submariner(plan, "cluster2", remoteGateway).routesIn(Names.CABLE_TABLE).stream()
                .filter(r -> r.metric() == Names.EGRESS_IP_ROUTE_METRIC && r.destination().equals(Ipv4Prefix.host(address)))
                .map(r -> r.nexthops().getFirst().via().orElseThrow()).findFirst();
    }

    private static Ipv4Address tunnel(String gatewayIp) {
        return Tunnels.tunnelAddress(Names.VXLAN_TUNNEL_FIRST_OCTET, Ipv4Address.parse(gatewayIp));
    }

    private static final Map<String, String> GATEWAY_IPS = Map.of("gw-1", "172.18.1.1", "gw-2", "172.18.1.2", "gw-3", "172.18.1.3");

    @Test
    void onTheirNodeOnlyTheDownGatewaysPodsAreSteeredToAnotherOwner() {
        int moved = 0;
        for (Pod pod : pods()) {
            String before = HeadlessPodOwners.ownerOf(cluster1, pod).orElseThrow();
            assertThat(ownerTable(healthy, pod)).isEqualTo(tableOf(before));
            if (before.equals("gw-2")) {
                moved++;
                assertThat(ownerTable(gw2Down, pod)).as(pod.name() + " of the down gateway moves").isNotEqualTo(tableOf("gw-2"));
            } else {
                assertThat(ownerTable(gw2Down, pod)).as(pod.name() + " of a live gateway stays").isEqualTo(tableOf(before));
            }
        }
        assertThat(moved).as("gw-2 owned some of the %d pods", PODS).isPositive();
        // The tables a moved pod now looks up route through that survivor alone.
        DataplanePlan worker = submariner(gw2Down, "cluster1", "worker-1");
        for (String survivor : List.of("gw-1", "gw-3")) {
            assertThat(worker.routesIn(tableOf(survivor))).isNotEmpty().allSatisfy(r ->
                    assertThat(r.nexthops()).singleElement().satisfies(nh -> assertThat(nh.via()).contains(
                            Tunnels.tunnelAddress(Names.VX_SUBMARINER_FIRST_OCTET, Ipv4Address.parse(GATEWAY_IPS.get(survivor))))));
        }
    }

    @Test
    void theNewOwnersAreTheOnesTraceFailPredicts() {
        ClusterSetPlan predicted = Planner.planWithout(set, List.of(DOWN));
        Cluster survivors = predicted.clusterSet().requireCluster("cluster1");
        Map<String, Integer> owners = new HashMap<>();
        for (Pod pod : pods()) {
            String owner = HeadlessPodOwners.ownerOf(survivors, pod).orElseThrow();
            owners.merge(owner, 1, Integer::sum);
            assertThat(ownerTable(gw2Down, pod)).as(pod.name()).isEqualTo(tableOf(owner));
            for (String remote : List.of("gw-a", "gw-b")) {
                assertThat(remoteRoute(gw2Down, remote, address(pod))).as(pod.name() + " on " + remote)
                        .isEqualTo(remoteRoute(predicted, remote, address(pod))).contains(tunnel(GATEWAY_IPS.get(owner)));
            }
        }
        assertThat(owners).containsOnlyKeys("gw-1", "gw-3");
    }

    @Test
    void remoteGatewaysRouteOnlyTheMovedPodsAddressesElsewhere() {
        for (Pod pod : pods()) {
            String before = HeadlessPodOwners.ownerOf(cluster1, pod).orElseThrow();
            for (String remote : List.of("gw-a", "gw-b")) {
                assertThat(remoteRoute(healthy, remote, address(pod))).contains(tunnel(GATEWAY_IPS.get(before)));
                if (!before.equals("gw-2")) {
                    assertThat(remoteRoute(gw2Down, remote, address(pod))).contains(tunnel(GATEWAY_IPS.get(before)));
                } else {
                    assertThat(remoteRoute(gw2Down, remote, address(pod))).hasValueSatisfying(via -> assertThat(via).isNotEqualTo(tunnel(GATEWAY_IPS.get("gw-2"))));
                }
            }
        }
    }

    @Test
    void theDownGatewayKeepsItsClusterEgressAndItsSlicesWhoseConnectionsOnlyItHeld() {
        AllocatedGlobalAddresses global = new AllocatedGlobalAddresses(healthy.allocations());
        List<Ipv4Address> kept = new java.util.ArrayList<>(global.clusterEgress("cluster1", Optional.of("gw-2")));
        kept.addAll(global.egress("cluster1", "default", "ns-egress", "gw-2"));
        assertThat(kept).hasSize(Cluster.DEFAULT_CLUSTER_EGRESS_IPS + 2);
        for (Ipv4Address address : kept) {
            assertThat(remoteRoute(gw2Down, "gw-a", address)).as(address.toString()).contains(tunnel("172.18.1.2"));
        }
        Endpoint down = endpoint(gw2Down, "gw-2");
        assertThat(down.allocatedIPs()).containsExactlyInAnyOrderElementsOf(kept);
        // The survivors publish the pods they took over, so a remote cluster that learns owners from Endpoints follows.
        Set<Ipv4Address> taken = pods().stream().filter(p -> HeadlessPodOwners.ownerOf(cluster1, p).orElseThrow().equals("gw-2"))
                .map(this::address).collect(java.util.stream.Collectors.toSet());
        Set<Ipv4Address> survivors = new java.util.HashSet<>(endpoint(gw2Down, "gw-1").allocatedIPs());
        survivors.addAll(endpoint(gw2Down, "gw-3").allocatedIPs());
        assertThat(survivors).containsAll(taken);
    }

    @Test
    void theRestOfThePlanIsUntouchedAndWithNoGatewayDownItIsThePlanAgain() {
        for (String gateway : List.of("gw-1", "gw-2", "gw-3")) {
            assertThat(submariner(gw2Down, "cluster1", gateway)).as("the local gateways' own programs").isEqualTo(submariner(healthy, "cluster1", gateway));
        }
        DataplanePlan before = submariner(healthy, "cluster1", "worker-1");
        DataplanePlan during = submariner(gw2Down, "cluster1", "worker-1");
        assertThat(during.netfilter()).isEqualTo(before.netfilter());
        assertThat(during.routes().stream().filter(r -> r.table() < Names.EGRESS_OWNER_TABLE_BASE).toList())
                .isEqualTo(before.routes().stream().filter(r -> r.table() < Names.EGRESS_OWNER_TABLE_BASE).toList());
        List<Route> remoteBefore = submariner(healthy, "cluster2", "gw-a").routes();
        List<Route> remoteDuring = submariner(gw2Down, "cluster2", "gw-a").routes();
        assertThat(remoteDuring).hasSameSizeAs(remoteBefore);

        ClusterSetPlan recovered = Planner.replan(gw2Down, DownGateways.NONE);
        assertThat(recovered.hosts()).isEqualTo(healthy.hosts());
        assertThat(recovered.endpoints()).isEqualTo(healthy.endpoints());
    }

    @Test
    void whenEveryGatewayIsDownEachKeepsWhatItOwned() {
        ClusterSetPlan allDown = Planner.replan(healthy, DownGateways.of(List.of("cluster1/gw-1", "cluster1/gw-2", "cluster1/gw-3")));
        assertThat(allDown.hosts()).isEqualTo(healthy.hosts());
    }

    private static Endpoint endpoint(ClusterSetPlan plan, String gateway) {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals("cluster1") && e.hostname().equals(gateway)).findFirst().orElseThrow();
    }
}
