package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Pairs no ClusterConnectivityPolicy matches get no tunnel and no route, and an explicit unreachable route instead. */
class ConnectivityPoliciesKeepUnconnectedClustersApart {

    private static Ipv4Prefix net(String text) {
        return Ipv4Prefix.parse(text);
    }

    private static List<Route> unreachable(DataplanePlan plan) {
        return plan.routes().stream().filter(r -> r.type() == RouteType.UNREACHABLE).toList();
    }

    @Test
    void everyNodeOfAClientHasTheOtherClientsSubnetsUnreachableWithThePolicyAsReason() {
        ClusterSetPlan plan = PlannedExamples.plan("client-server.yaml");
        for (String node : List.of("client1-gw", "client1-worker")) {
            assertThat(unreachable(submariner(plan, "client1", node))).as(node).satisfiesExactly(
                    r -> assertThat(r.destination()).isEqualTo(net("100.12.0.0/16")),
                    r -> assertThat(r.destination()).isEqualTo(net("10.12.0.0/16")))
                    .allSatisfy(r -> {
                        assertThat(r.table()).isEqualTo(Route.MAIN_TABLE);
                        assertThat(r.reason()).contains("no ClusterConnectivityPolicy connects client1 and client2");
                    });
        }
        assertThat(unreachable(submariner(plan, "server", "server-worker"))).isEmpty();
        assertThat(submariner(plan, "client1", "client1-worker").routesIn(Route.MAIN_TABLE))
                .filteredOn(r -> r.type() == RouteType.UNICAST).extracting(Route::destination)
                .containsExactly(net("100.10.0.0/16"), net("10.10.0.0/16"));
        assertThat(submariner(plan, "client1", "client1-gw").routesIn(100)).extracting(Route::destination)
                .containsExactly(net("100.10.0.0/16"), net("10.10.0.0/16"));
    }

    @Test
    void withGlobalnetOnlyConnectedClustersGlobalCidrsAreMarkedAndRouted() {
        ClusterSetPlan plan = Planner.plan(PlannedExamples.parse("""
                name: apart
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                clusters:
                  - name: server
                    labels: {database-role: server}
                    podCIDRs: [10.0.0.0/16]
                    serviceCIDRs: [100.0.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.0.0.1, gateway: true}]
                  - name: client1
                    labels: {database-role: client}
                    podCIDRs: [10.0.0.0/16]
                    serviceCIDRs: [100.0.0.0/16]
                    nodes: [{name: gw, ip: 172.20.2.2, cniIP: 10.0.0.1, gateway: true}]
                  - name: client2
                    labels: {database-role: client}
                    podCIDRs: [10.0.0.0/16]
                    serviceCIDRs: [100.0.0.0/16]
                    nodes: [{name: gw, ip: 172.20.3.2, cniIP: 10.0.0.1, gateway: true}]
                connectivityPolicies:
                  - {name: client-server-policy, leftClusterSelector: {database-role: server}, rightClusterSelector: {database-role: client}}
                """));
        DataplanePlan client1 = submariner(plan, "client1", "gw");
        assertThat(rules(client1, Table.NAT, "SUBMARINER-GN-MARK")).containsExactly("-d 242.0.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000");
        assertThat(client1.routesIn(100)).extracting(Route::destination).containsExactly(net("242.0.0.0/16"));
        assertThat(unreachable(client1)).singleElement().satisfies(r -> {
            assertThat(r.destination()).isEqualTo(net("242.2.0.0/16"));
            assertThat(r.reason()).contains("no ClusterConnectivityPolicy connects client1 and client2");
        });
        assertThat(rules(submariner(plan, "server", "gw"), Table.NAT, "SUBMARINER-GN-MARK")).containsExactly(
                "-d 242.1.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000", "-d 242.2.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000");
    }

    @Test
    void withoutAnyConnectivityPolicyNothingIsUnreachable() {
        ClusterSetPlan plan = PlannedExamples.plan("on-premise-vxlan-cloud-wireguard.yaml");
        assertThat(plan.hosts().values()).allSatisfy(host -> assertThat(unreachable(host.submariner())).isEmpty());
    }
}
