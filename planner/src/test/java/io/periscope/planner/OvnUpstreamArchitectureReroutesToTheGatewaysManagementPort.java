package io.periscope.planner;

import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code behaviour: upstream} on OVN-Kubernetes (upstream v0.19's handlers/ovn): no
 * submariner_router, no br-submariner or ovn-k8s-sub0; ovn_cluster_router reroutes the remote CIDRs
 * to the active gateway's ovn-k8s-mp0 address, every node looks remote CIDRs up in table 150, and the
 * gateway sends what comes from remote clusters back into OVN by table 149, both by default routes
 * through ovn-k8s-mp0.
 */
class OvnUpstreamArchitectureReroutesToTheGatewaysManagementPort {

    /** examples/globalnet-ovn.yaml: east-gw's ovn-k8s-mp0 is 10.244.0.1 (router port .2), east-worker's 10.244.1.1. */
    private static ClusterSet upstream() {
        return PlannedExamples.load("globalnet-ovn.yaml").withBehaviour(Behaviour.UPSTREAM);
    }

    /** The same with a second gateway in east, which takes over when east-gw fails. */
    private static ClusterSet upstreamWithASecondEastGateway() {
        try {
            String text = java.nio.file.Files.readString(PlannedExamples.example("globalnet-ovn.yaml")).replace(
                    "      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n",
                    "      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n"
                            + "      - {name: east-gw2, ip: 192.168.10.4, cniIP: 10.244.2.1, gateway: true}\n");
            return PlannedExamples.parse(text).withBehaviour(Behaviour.UPSTREAM);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static LogicalRouter clusterRouter(ClusterSetPlan plan, String cluster) {
        return plan.ovn(cluster).orElseThrow().router("ovn_cluster_router").orElseThrow();
    }

    /** The node's rules and routes of the OVN handler's tables 149 and 150, as {@code ip rule} and {@code ip route} name them. */
    private static List<String> ovnTables(DataplanePlan plan) {
        List<String> lines = new java.util.ArrayList<>();
        for (PolicyRule rule : plan.rules()) {
            if (rule.table() == 149 || rule.table() == 150) {
                lines.add("rule " + rule.priority() + rule.from().map(f -> " from " + f).orElse("") + rule.to().map(t -> " to " + t).orElse("")
                        + " lookup " + rule.table());
            }
        }
        for (int table : List.of(150, 149)) {
            for (Route route : plan.routesIn(table)) {
                lines.add("table " + table + ": " + route.destination() + " via " + route.nexthops().getFirst().via().orElseThrow()
                        + " dev " + route.nexthops().getFirst().device());
            }
        }
        return lines;
    }

    @Test
    void ovnClusterRouterReroutesAndRoutesTheRemoteGlobalCidrToTheActiveGatewaysManagementPort() {
        LogicalRouter east = clusterRouter(Planner.plan(upstream()), "east");
        assertThat(east.policies()).extracting(RouterPolicy::text).containsExactly("20000 ip4.dst == 242.1.0.0/16 reroute 10.244.0.1");
        assertThat(east.staticRoutes()).extracting(StaticRoute::text).endsWith("242.1.0.0/16 10.244.0.1 dst-ip");
        LogicalRouter west = clusterRouter(Planner.plan(upstream()), "west");
        assertThat(west.policies()).extracting(RouterPolicy::text).containsExactly("20000 ip4.dst == 242.0.0.0/16 reroute 10.244.0.1");
    }

    @Test
    void thereIsNoSubmarinerRouterNorItsSwitchesNorBrSubmarinerNorOvnK8sSub0() {
        ClusterSetPlan plan = Planner.plan(upstream());
        OvnTopology east = plan.ovn("east").orElseThrow();
        assertThat(east.routers()).extracting(LogicalRouter::name).containsExactly("ovn_cluster_router");
        assertThat(east.switches()).extracting(LogicalSwitch::name).containsExactly("east-gw", "east-worker", "join");
        assertThat(east.bridges()).isEmpty();
        assertThat(clusterRouter(plan, "east").ports()).extracting(RouterPort::name)
                .containsExactly("rtos-east-gw", "rtos-east-worker", "rtoj-ovn_cluster_router");
        assertThat(plan.segment("east/ovn/submariner_gateway")).isEmpty();
        assertThat(plan.hosts().values()).flatExtracting(HostPlan::interfaces).noneMatch(i -> i.name().equals("ovn-k8s-sub0"));
    }

    @Test
    void aNonGatewayNodeGetsTable150AloneAndEmptyChains() {
        DataplanePlan worker = submariner(Planner.plan(upstream()), "east", "east-worker");
        assertThat(ovnTables(worker)).containsExactly(
                "rule 150 to 242.1.0.0/16 lookup 150",
                "table 150: 0.0.0.0/0 via 10.244.1.2 dev ovn-k8s-mp0");
        assertThat(rules(worker, Table.FILTER, "SUBMARINER-FWD-MSSCLAMP")).isEmpty();
        assertThat(rules(worker, Table.FILTER, "SUBMARINER-FORWARD")).isEmpty();
        assertThat(rules(worker, Table.NAT, "SUBMARINER-POSTROUTING")).isEmpty();
        assertThat(rules(worker, Table.FILTER, "FORWARD")).containsExactly("-j SUBMARINER-FWD-MSSCLAMP", "-j SUBMARINER-FORWARD");
    }

    @Test
    void theGatewayGetsTable150ThenTable149AndItsForwardingClampAndNoMasqueradeRules() {
        DataplanePlan gateway = submariner(Planner.plan(upstream()), "west", "west-gw");
        assertThat(ovnTables(gateway)).containsExactly(
                "rule 150 to 242.0.0.0/16 lookup 150",
                "rule 149 from 242.0.0.0/16 to 10.244.0.0/16 lookup 149",
                "rule 149 from 242.0.0.0/16 to 10.96.0.0/16 lookup 149",
                "table 150: 0.0.0.0/0 via 10.244.0.2 dev ovn-k8s-mp0",
                "table 149: 0.0.0.0/0 via 10.244.0.2 dev ovn-k8s-mp0");
        assertThat(rules(gateway, Table.FILTER, "SUBMARINER-FWD-MSSCLAMP")).containsExactly(
                "-d 242.0.0.0/16 -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1398",
                "-s 242.0.0.0/16 -p tcp -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1398");
        // The cable interface of a vxlan Endpoint is the default interface: a gateway's is the device towards the WAN.
        assertThat(rules(gateway, Table.FILTER, "SUBMARINER-FORWARD")).containsExactly(
                "-d 242.0.0.0/16 -i ovn-k8s-mp0 -o wan0 -j ACCEPT",
                "-s 242.0.0.0/16 -i wan0 -o ovn-k8s-mp0 -j ACCEPT");
        // Globalnet's jump stays first: its SNAT has run before the no-masquerade ACCEPTs are reached.
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-POSTROUTING")).containsExactly(
                "-j SUBMARINER-GN-EGRESS", "-d 242.0.0.0/16 -j ACCEPT", "-s 242.0.0.0/16 -j ACCEPT");
    }

    @Test
    void globalnetsChainsOnTheGatewayAreTheSameUnderBothBehaviours() {
        DataplanePlan seeds = submariner(Planner.plan(PlannedExamples.load("globalnet-ovn.yaml")), "west", "west-gw");
        DataplanePlan upstream = submariner(Planner.plan(upstream()), "west", "west-gw");
        for (String chain : List.of("SUBMARINER-GN-INGRESS", "SUBMARINER-GN-EGRESS", "SUBMARINER-GN-MARK", "SM-GN-EGRESS-CLUSTER")) {
            assertThat(rules(upstream, Table.NAT, chain)).as(chain).isNotEmpty().isEqualTo(rules(seeds, Table.NAT, chain));
        }
    }

    @Test
    void whenTheGatewayFailsOverThePoliciesRerouteToTheNewGatewaysManagementPortWhichGetsTable149() {
        ClusterSet set = upstreamWithASecondEastGateway();
        assertThat(clusterRouter(Planner.plan(set), "east").policies()).extracting(RouterPolicy::text)
                .containsExactly("20000 ip4.dst == 242.1.0.0/16 reroute 10.244.0.1");
        ClusterSetPlan failedOver = Planner.planWithout(set, List.of("east/east-gw"));
        assertThat(clusterRouter(failedOver, "east").policies()).extracting(RouterPolicy::text)
                .containsExactly("20000 ip4.dst == 242.1.0.0/16 reroute 10.244.2.1");
        assertThat(clusterRouter(failedOver, "east").staticRoutes()).extracting(StaticRoute::text).endsWith("242.1.0.0/16 10.244.2.1 dst-ip");
        assertThat(ovnTables(submariner(failedOver, "east", "east-gw2"))).contains("table 149: 0.0.0.0/0 via 10.244.2.2 dev ovn-k8s-mp0");
    }

    @Test
    void withEveryGatewayFailedNothingIsRerouted() {
        ClusterSetPlan plan = Planner.planWithout(upstream(), List.of("east/east-gw"));
        assertThat(clusterRouter(plan, "east").policies()).isEmpty();
        assertThat(clusterRouter(plan, "east").staticRoutes()).noneMatch(r -> r.prefix().toString().equals("242.1.0.0/16"));
        // east publishes no Endpoint any more either, so west has nothing for it.
        assertThat(clusterRouter(plan, "west").policies()).isEmpty();
        assertThat(clusterRouter(Planner.plan(upstream()), "west").policies()).isNotEmpty();
    }

    @Test
    void whenEveryGatewayOfARemoteClusterFailedItsEndpointIsGoneAndWithItEverythingTheHandlerHadForIt() {
        ClusterSetPlan plan = Planner.planWithout(upstream(), List.of("west/west-gw"));
        assertThat(clusterRouter(plan, "east").policies()).isEmpty();
        assertThat(ovnTables(submariner(plan, "east", "east-gw"))).isEmpty();
        assertThat(rules(submariner(plan, "east", "east-gw"), Table.FILTER, "SUBMARINER-FORWARD")).isEmpty();
        assertThat(rules(submariner(plan, "east", "east-gw"), Table.NAT, "SUBMARINER-POSTROUTING")).containsExactly("-j SUBMARINER-GN-EGRESS");
    }

    @Test
    void seedsStaysTheDefault() {
        assertThat(PlannedExamples.load("globalnet-ovn.yaml").behaviour()).isEqualTo(Behaviour.SEEDS);
        assertThat(Planner.plan(PlannedExamples.load("globalnet-ovn.yaml")).ovn("east").orElseThrow().routers())
                .extracting(LogicalRouter::name).containsExactly("ovn_cluster_router", "submariner_router");
    }
}
