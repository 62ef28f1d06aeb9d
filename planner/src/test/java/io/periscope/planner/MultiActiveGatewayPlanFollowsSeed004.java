package io.periscope.planner;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Golden checks of examples/mag-globalnet.yaml against the shapes seed 004 documents. */
class MultiActiveGatewayPlanFollowsSeed004 {

    private final ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void workerRoutesTheRemoteGlobalCidrOverBothLocalGatewaysOnVxSubmariner() {
        DataplanePlan worker = submariner(plan, "cluster1", "worker-1");
        Route route = worker.routesIn(Route.MAIN_TABLE).stream()
                .filter(r -> r.destination().equals(Ipv4Prefix.parse("242.254.2.0/24"))).findFirst().orElseThrow();
        assertThat(route.protocol()).isEqualTo(RouteProtocol.STATIC);
        assertThat(route.nexthops()).containsExactly(
                Nexthop.via(ip("240.18.0.6"), "vx-submariner"), Nexthop.via(ip("240.18.0.8"), "vx-submariner"));
    }

    @Test
    void workerVxlanHasAnAllZeroFdbEntryPerLocalGateway() {
        DataplanePlan worker = submariner(plan, "cluster1", "worker-1");
        assertThat(worker.fdb()).filteredOn(e -> e.mac().equals(MacAddress.ZERO)).containsExactly(
                new FdbEntry("vx-submariner", MacAddress.ZERO, ip("172.18.0.6")),
                new FdbEntry("vx-submariner", MacAddress.ZERO, ip("172.18.0.8")));
        assertThat(worker.vxlanDevices()).singleElement().satisfies(vx -> {
            assertThat(vx.vni()).isEqualTo(100);
            assertThat(vx.port()).isEqualTo(4800);
            assertThat(vx.address()).isEqualTo(ip("240.18.0.10"));
        });
    }

    @Test
    void gatewayRoutesTheRemoteGlobalCidrInTable100OverBothRemoteGateways() {
        DataplanePlan gateway = submariner(plan, "cluster1", "gw-1");
        Route route = gateway.routesIn(100).stream()
                .filter(r -> r.destination().equals(Ipv4Prefix.parse("242.254.2.0/24"))).findFirst().orElseThrow();
        assertThat(route.source()).contains(ip("10.0.0.1"));
        assertThat(route.metric()).isEqualTo(100);
        assertThat(route.nexthops()).containsExactly(
                Nexthop.via(ip("241.18.0.4"), "vxlan-tunnel"), Nexthop.via(ip("241.18.0.9"), "vxlan-tunnel"));
    }

    @Test
    void eachGatewaySnatsToItsOwnClusterEgressRange() {
        assertThat(rules(submariner(plan, "cluster1", "gw-1"), Table.NAT, "SM-GN-EGRESS-CLUSTER"))
                .containsExactly("-s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8",
                        "-s 100.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8");
        assertThat(rules(submariner(plan, "cluster1", "gw-2"), Table.NAT, "SM-GN-EGRESS-CLUSTER"))
                .containsExactly("-s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.9-242.254.1.16",
                        "-s 100.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.9-242.254.1.16");
    }

    @Test
    void dnatedTrafficFromTheTunnelIsSnatedToTheGatewaysCniAddress() {
        DataplanePlan gateway = submariner(plan, "cluster2", "gw-4");
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-POSTROUTING")).containsExactly(
                "-j SUBMARINER-GN-EGRESS",
                // Upstream's host-network SNAT, after Globalnet's jump as upstream's chain has it.
                "-s 240.0.0.0/8 -o vx-submariner -j SNAT --to-source 10.0.192.1",
                "-o eth0 -m mark --mark 0x100000/0x100000 -m conntrack --ctstate DNAT -j SNAT --to-source 10.0.192.1",
                // The route agent's no-masquerade rules, both ways, for the remote global CIDR; after
                // the SNAT, which they would otherwise keep from ever matching.
                "-s 10.0.0.0/16 -d 242.254.1.0/24 -j ACCEPT",
                "-s 242.254.1.0/24 -d 10.0.0.0/16 -j ACCEPT");
        assertThat(rules(gateway, Table.MANGLE, "SUBMARINER-PREROUTING"))
                .containsExactly("-i vxlan-tunnel -j MARK --set-xmark 0x100000/0x100000");
    }

    @Test
    void returnTrafficFromTheTunnelIsAcceptedIntoThePodNetwork() {
        assertThat(rules(submariner(plan, "cluster1", "gw-1"), Table.FILTER, "SUBMARINER-FORWARD"))
                .containsExactly("-o vx-submariner -j ACCEPT", "-d 10.0.0.0/16 -i vxlan-tunnel -j ACCEPT");
    }

    @Test
    void remoteEgressAddressesRouteBackToTheirOwnGatewayAtMetric98() {
        DataplanePlan gateway = submariner(plan, "cluster2", "gw-4");
        List<Route> metric98 = gateway.routesIn(100).stream().filter(r -> r.metric() == 98).toList();
        // 8 egress addresses per remote gateway, and each remote gateway's own global IP (its healthCheckIP).
        assertThat(metric98).hasSize(18);
        assertThat(metric98).filteredOn(r -> r.destination().equals(Ipv4Prefix.parse("242.254.1.254/32")))
                .singleElement().satisfies(r -> {
                    assertThat(r.nexthops()).containsExactly(Nexthop.via(ip("241.18.0.6"), "vxlan-tunnel"));
                    assertThat(r.source()).contains(ip("10.0.192.1"));
                });
        assertThat(metric98).filteredOn(r -> r.destination().equals(Ipv4Prefix.parse("242.254.1.1/32")))
                .singleElement().satisfies(r -> assertThat(r.nexthops()).containsExactly(Nexthop.via(ip("241.18.0.6"), "vxlan-tunnel")));
        assertThat(metric98).filteredOn(r -> r.destination().equals(Ipv4Prefix.parse("242.254.1.16/32")))
                .singleElement().satisfies(r -> assertThat(r.nexthops()).containsExactly(Nexthop.via(ip("241.18.0.8"), "vxlan-tunnel")));
    }

    @Test
    void gatewayEndpointsCarryTheirAllocatedEgressAddresses() {
        Endpoint gw2 = plan.endpoints().stream().filter(e -> e.hostname().equals("gw-2")).findFirst().orElseThrow();
        assertThat(gw2.allocatedIPs()).hasSize(8).startsWith(ip("242.254.1.9")).endsWith(ip("242.254.1.16"));
        assertThat(gw2.subnets()).containsExactly(Ipv4Prefix.parse("242.254.1.0/24"));
    }

    @Test
    void exportedServiceGlobalIpIsDnatedByKubeProxyAsAnExternalIp() {
        DataplanePlan environment = plan.host(io.periscope.plan.HostId.node("cluster2", "gw-4")).orElseThrow().kubeProxy();
        assertThat(rules(environment, Table.NAT, "KUBE-SERVICES"))
                .anyMatch(r -> r.startsWith("-d 242.254.2.254/32 -p tcp -m comment --comment \"default/submariner-")
                        && r.endsWith("external IP\" -m tcp --dport 80 -j " + r.substring(r.lastIndexOf("KUBE-EXT-"))));
        String ext = rules(environment, Table.NAT, "KUBE-SERVICES").stream().filter(r -> r.startsWith("-d 242.254.2.254/32"))
                .map(r -> r.substring(r.lastIndexOf("KUBE-EXT-"))).findFirst().orElseThrow();
        // kube-proxy marks all external-IP traffic for masquerading, then load-balances it.
        assertThat(rules(environment, Table.NAT, ext)).hasSize(2).first().asString().endsWith("-j KUBE-MARK-MASQ");
        assertThat(plan.serviceRecords()).singleElement().satisfies(record -> {
            assertThat(record.address()).isEqualTo(ip("242.254.2.254"));
            assertThat(record.pod()).isEqualTo(Optional.empty());
        });
    }
}
