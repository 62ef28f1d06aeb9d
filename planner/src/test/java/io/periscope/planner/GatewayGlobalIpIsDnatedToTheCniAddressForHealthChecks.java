package io.periscope.planner;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
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

/**
 * Upstream's Gateway controller programs {@code -p icmp -d <global IP> -j DNAT --to <CNI IP>} in
 * SUBMARINER-GN-INGRESS on the active gateway ({@code AddIngressRulesForHealthCheck}; iptables-save
 * prints it {@code -d <ip>/32 -p icmp ... --to-destination}), and the gateway publishes its Gateway
 * object's global IP as its Endpoint's healthCheckIP, which remote gateways ping. Without Globalnet
 * the healthCheckIP is the CNI address itself.
 */
class GatewayGlobalIpIsDnatedToTheCniAddressForHealthChecks {

    private static Optional<Ipv4Address> healthCheckIp(ClusterSetPlan plan, String cluster, String gateway) {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals(cluster) && e.hostname().equals(gateway))
                .findFirst().orElseThrow().healthCheckIp();
    }

    @Test
    void eachActiveGatewayDnatsIcmpToItsOwnGlobalIpAndNothingElse() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");

        assertThat(rules(submariner(plan, "cluster2", "gw-3"), Table.NAT, "SUBMARINER-GN-INGRESS"))
                .containsExactly("-d 242.254.2.253/32 -p icmp -j DNAT --to-destination 10.0.0.1");
        assertThat(rules(submariner(plan, "cluster2", "gw-4"), Table.NAT, "SUBMARINER-GN-INGRESS"))
                .containsExactly("-d 242.254.2.252/32 -p icmp -j DNAT --to-destination 10.0.192.1");
        assertThat(rules(submariner(plan, "cluster1", "gw-1"), Table.NAT, "SUBMARINER-GN-INGRESS"))
                .containsExactly("-d 242.254.1.254/32 -p icmp -j DNAT --to-destination 10.0.0.1");
        assertThat(submariner(plan, "cluster1", "worker-1").table(Table.NAT).flatMap(t -> t.chain("SUBMARINER-GN-INGRESS"))).isEmpty();
    }

    @Test
    void theEndpointPublishesTheGlobalIpAsHealthCheckIp() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");

        assertThat(plan.endpoints()).extracting(e -> e.hostname() + " " + e.healthCheckIp().map(Object::toString).orElse("-"))
                .containsExactly("gw-1 242.254.1.254", "gw-2 242.254.1.253", "gw-3 242.254.2.253", "gw-4 242.254.2.252");
        assertThat(plan.allocations().gatewayGlobalIp("cluster2", "gw-3")).isEqualTo(healthCheckIp(plan, "cluster2", "gw-3"));
    }

    @Test
    void remoteGatewaysRouteEachGatewaysOwnGlobalIpToItFromTheirCniAddress() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");

        // The cluster's multipath route would spread pings over both gateways, and only the owner DNATs its address.
        List<Route> routes = submariner(plan, "cluster1", "gw-2").routesIn(100);
        assertThat(routes).contains(
                Route.unicast(100, Ipv4Prefix.parse("242.254.2.253/32"), List.of(Nexthop.via(Ipv4Address.parse("241.18.0.4"), "vxlan-tunnel")),
                        RouteProtocol.STATIC).withSource(Ipv4Address.parse("10.0.64.1")).withMetric(98),
                Route.unicast(100, Ipv4Prefix.parse("242.254.2.252/32"), List.of(Nexthop.via(Ipv4Address.parse("241.18.0.9"), "vxlan-tunnel")),
                        RouteProtocol.STATIC).withSource(Ipv4Address.parse("10.0.64.1")).withMetric(98));
    }

    @Test
    void withoutGlobalnetTheHealthCheckIpIsTheCniAddress() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-vanilla.yaml");

        for (Endpoint endpoint : plan.endpoints()) {
            Ipv4Address cni = plan.clusterSet().requireCluster(endpoint.clusterId()).requireNode(endpoint.hostname()).cniIp();
            assertThat(endpoint.healthCheckIp()).as(endpoint.hostname()).contains(cni);
        }
    }

    @Test
    void afterASingleActiveGatewayFailsItsSuccessorPublishesAndDnatsAnAddressOfItsOwn() {
        ClusterSetPlan whole = Planner.plan(PlannedExamples.parse("""
                name: standby
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                clusters:
                  - name: east
                    podCIDRs: [10.244.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
                  - name: west
                    podCIDRs: [10.244.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: west-gw-a, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}
                      - {name: west-gw-b, ip: 192.168.20.3, cniIP: 10.244.1.1, gateway: true}
                """));
        assertThat(whole.endpoints()).filteredOn(e -> e.clusterId().equals("west")).extracting(Endpoint::hostname).containsExactly("west-gw-a");
        Ipv4Address address = healthCheckIp(whole, "west", "west-gw-a").orElseThrow();
        assertThat(address).isEqualTo(Ipv4Address.parse("242.1.255.254"));
        assertThat(rules(submariner(whole, "west", "west-gw-b"), Table.NAT, "SUBMARINER-GN-INGRESS")).isEmpty();

        ClusterSetPlan without = Planner.planWithout(whole.clusterSet(), List.of("west/west-gw-a"));

        // The failed gateway's Gateway object still holds 242.1.255.254; the successor gets the next one down.
        assertThat(healthCheckIp(without, "west", "west-gw-b")).contains(Ipv4Address.parse("242.1.255.253"));
        assertThat(without.allocations().gatewayGlobalIp("west", "west-gw-a")).contains(address);
        assertThat(rules(submariner(without, "west", "west-gw-b"), Table.NAT, "SUBMARINER-GN-INGRESS"))
                .containsExactly("-d 242.1.255.253/32 -p icmp -j DNAT --to-destination 10.244.1.1");
    }
}
