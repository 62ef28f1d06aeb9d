package io.periscope.planner;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Seed 004's three load-balancing options, the route agent without Globalnet, and legacy Globalnet (seed 000). */
class LoadBalancingOptionsAndDesignsPlanAsDocumented {

    private static ClusterSetPlan magWith(String edit) throws Exception {
        String yaml = Files.readString(PlannedExamples.example("mag-globalnet.yaml"));
        return Planner.plan(TopologyLoader.parse(yaml.replace("    multiActiveGateways: true\n", "    multiActiveGateways: true\n" + edit),
                "mag-globalnet.yaml"));
    }

    @Test
    void nexthopGroupsShareOneGroupPerDestinationSet() throws Exception {
        DataplanePlan worker = submariner(magWith("    gatewayLoadBalancing: nexthop-groups\n"), "cluster1", "worker-1");
        Route route = worker.routesIn(Route.MAIN_TABLE).stream()
                .filter(r -> r.destination().equals(Ipv4Prefix.parse("242.254.2.0/24"))).findFirst().orElseThrow();
        assertThat(route.nexthops()).isEmpty();
        NexthopGroup group = worker.nexthopGroups().stream().filter(g -> g.id() == route.nexthopId().getAsInt()).findFirst().orElseThrow();
        assertThat(group.resilient()).isFalse();
        assertThat(group.members()).hasSize(2);
        assertThat(worker.nexthops()).extracting(n -> n.via().toString()).contains("240.18.0.6", "240.18.0.8");
    }

    @Test
    void resilientGroupsHaveBucketsAndAnExplicitIdleTimer() throws Exception {
        DataplanePlan gateway = submariner(magWith("    gatewayLoadBalancing: resilient-nexthop-groups\n"), "cluster1", "gw-1");
        assertThat(gateway.nexthopGroups()).isNotEmpty().allSatisfy(g -> {
            assertThat(g.resilient()).isTrue();
            assertThat(g.buckets()).isEqualTo(Tunnels.RESILIENT_BUCKETS);
            assertThat(g.idleTimerSeconds()).isEqualTo(Tunnels.RESILIENT_IDLE_TIMER_SECONDS).isEqualTo(120);
        });
        assertThat(gateway.routesIn(100).stream().filter(r -> r.metric() == 100)).allMatch(r -> r.nexthopId().isPresent());
    }

    @Test
    void withoutGlobalnetRemotePodAndServiceCidrsAreRoutedAndNotNated() throws Exception {
        String yaml = """
                name: vanilla
                defaults: {cableDriver: vxlan}
                clusters:
                  - name: c1
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.0.2, cniIP: 10.1.0.1, gateway: true}
                      - {name: w, ip: 172.20.0.3, cniIP: 10.1.128.1}
                  - name: c2
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [100.2.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.2.0.1, gateway: true}
                """;
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(yaml, "vanilla.yaml"));
        DataplanePlan worker = submariner(plan, "c1", "w");
        assertThat(worker.routesIn(Route.MAIN_TABLE)).extracting(r -> r.destination().toString()).containsExactly("100.2.0.0/16", "10.2.0.0/16");
        assertThat(worker.routesIn(Route.MAIN_TABLE).getFirst().nexthops()).singleElement()
                .satisfies(n -> assertThat(n.via()).contains(Ipv4Address.parse("240.20.0.2")));
        assertThat(rules(worker, Table.NAT, "SUBMARINER-POSTROUTING"))
                .containsExactly("-s 240.0.0.0/8 -o vx-submariner -j SNAT --to-source 10.1.128.1", "-s 10.1.0.0/16 -d 100.2.0.0/16 -j ACCEPT", "-s 100.2.0.0/16 -d 10.1.0.0/16 -j ACCEPT",
                        "-s 10.1.0.0/16 -d 10.2.0.0/16 -j ACCEPT", "-s 10.2.0.0/16 -d 10.1.0.0/16 -j ACCEPT");
        assertThat(rules(submariner(plan, "c1", "gw"), Table.NAT, "SUBMARINER-GN-EGRESS")).isEmpty();
    }

    @Test
    void legacyGlobalnetSnatsEveryPodToItsOwnAddress() throws Exception {
        String yaml = Files.readString(PlannedExamples.example("globalnet-egress.yaml"))
                .replace("  clusterSize: 65536\n", "  clusterSize: 65536\n  mode: legacy\n")
                .replaceAll("(?s)    globalEgressIPs:.*?(?=  - name: west)", "");
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(yaml, "legacy.yaml"));
        DataplanePlan east = submariner(plan, "east", "east-gw");
        assertThat(rules(east, Table.NAT, "SUBMARINER-GN-EGRESS")).first().isEqualTo("-j SUBMARINER-GN-MARK");
        assertThat(rules(east, Table.NAT, "SUBMARINER-GN-EGRESS")).filteredOn(r -> r.matches("-s 10\\.244\\.1\\.1\\d/32 .*")).hasSize(3)
                .allMatch(r -> r.matches(".*-j SNAT --to-source 242\\.0\\.255\\.\\d+"));
        // Nodes have global IPs too: their own traffic leaves with their CNI address.
        assertThat(rules(east, Table.NAT, "SUBMARINER-GN-EGRESS"))
                .anyMatch(r -> r.matches("-s 10\\.244\\.1\\.1/32 -m mark .*-j SNAT --to-source 242\\.0\\.255\\.\\d+"));
        assertThat(rules(submariner(plan, "west", "west-gw"), Table.NAT, "SUBMARINER-GN-INGRESS"))
                .anyMatch(r -> r.startsWith("-d 242.1.255.254/32 -p tcp") && r.contains("-j KUBE-SVC-"));
        assertThat(rules(east, Table.NAT, "SM-GN-EGRESS-CLUSTER")).isEmpty();
    }
}
