package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Seed 003: Submariner's OVN topology and the route agent's OVN handler, with and without Globalnet. */
class OvnTopologyPlanFollowsSeed003 {

    private static final String CLUSTERS = """
              - name: east
                cni: ovn-kubernetes
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}
                  - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}
                pods:
                  - {name: web, node: east-worker, ip: 10.244.1.10}
              - name: west
                cni: ovn-kubernetes
                podCIDRs: [WEST_PODS]
                serviceCIDRs: [WEST_SERVICES]
                nodes:
                  - {name: west-gw, ip: 192.168.20.2, cniIP: WEST_CNI.0.1, gateway: true}
                  - {name: west-worker, ip: 192.168.20.3, cniIP: WEST_CNI.1.1}
                pods:
                  - {name: nginx-1, node: west-worker, ip: WEST_CNI.1.10, labels: {app: nginx}}
                services:
                  - {name: nginx, clusterIP: WEST_VIP, selector: {app: nginx}, ports: [{port: 8080}]}
                exports: [default/nginx]
            """;

    private static ClusterSetPlan globalnet() {
        return Planner.plan(PlannedExamples.parse("""
                name: gn-ovn
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                defaults: {cableDriver: vxlan}
                clusters:
                """ + CLUSTERS.replace("WEST_PODS", "10.244.0.0/16").replace("WEST_SERVICES", "10.96.0.0/16")
                .replace("WEST_CNI", "10.244").replace("WEST_VIP", "10.96.0.50")));
    }

    private static ClusterSetPlan vanilla() {
        return Planner.plan(PlannedExamples.parse("""
                name: vanilla-ovn
                defaults: {cableDriver: vxlan}
                clusters:
                """ + CLUSTERS.replace("WEST_PODS", "10.20.0.0/16").replace("WEST_SERVICES", "10.120.0.0/16")
                .replace("WEST_CNI", "10.20").replace("WEST_VIP", "10.120.0.50")));
    }

    private static Ipv4Prefix net(String text) {
        return Ipv4Prefix.parse(text);
    }

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static LogicalRouter router(ClusterSetPlan plan, String cluster, String name) {
        return plan.ovn(cluster).orElseThrow().router(name).orElseThrow();
    }

    @Test
    void everyOvnClusterHasBothRoutersTheSubmarinerSwitchesAndTheLoadBalancerGroupOnSubmarinerRouter() {
        OvnTopology east = globalnet().ovn("east").orElseThrow();
        assertThat(east.routers()).extracting(LogicalRouter::name).containsExactly("ovn_cluster_router", "submariner_router");
        assertThat(east.switches()).extracting(s -> s.name()).contains("east-gw", "east-worker", "submariner_join", "submariner_gateway");
        assertThat(router(globalnet(), "east", "submariner_router").loadBalancerGroups()).containsExactly("clusterLBGroup");
        assertThat(east.loadBalancerGroup("clusterLBGroup")).isPresent();
        assertThat(globalnet().ovn("west").orElseThrow().loadBalancerGroup("clusterLBGroup").orElseThrow().loadBalancers())
                .singleElement().satisfies(lb -> assertThat(lb.text()).isEqualTo("tcp 10.96.0.50:8080 -> 10.244.1.10:8080"));
    }

    @Test
    void kubeProxyClustersHaveNoOvnTopology() {
        ClusterSetPlan plan = PlannedExamples.plan("client-server.yaml");
        assertThat(plan.ovn()).isEmpty();
    }

    @Test
    void ovnClusterRouterReroutesTheRemoteGlobalCidrWithGlobalnetAndTheRemotePodAndServiceCidrsWithout() {
        assertThat(router(globalnet(), "east", "ovn_cluster_router").policies()).extracting(RouterPolicy::text)
                .containsExactly("20000 ip4.dst == 242.1.0.0/16 reroute 169.254.254.1");
        assertThat(router(vanilla(), "east", "ovn_cluster_router").policies()).extracting(RouterPolicy::text)
                .containsExactly("20000 ip4.dst == 10.120.0.0/16 reroute 169.254.254.1", "20000 ip4.dst == 10.20.0.0/16 reroute 169.254.254.1");
    }

    @Test
    void submarinerRouterIsBoundToTheActiveGatewayAndRoutesRemoteCidrsUpAndLocalCidrsDown() {
        LogicalRouter router = router(globalnet(), "west", "submariner_router");
        assertThat(router.chassis()).contains("west-gw");
        assertThat(router.staticRoutes()).extracting(StaticRoute::text).containsExactly(
                "242.0.0.0/16 169.254.254.10 dst-ip submariner_up_lrp",
                "10.244.0.0/16 169.254.254.2 dst-ip submariner_j_lrp",
                "10.96.0.0/16 169.254.254.2 dst-ip submariner_j_lrp");
    }

    @Test
    void withEveryGatewayFailedSubmarinerRouterIsBoundToNoChassisAndNoHostIsBehindSubmarinerGateway() {
        ClusterSetPlan plan = Planner.planWithout(globalnet().clusterSet(), List.of("east/east-gw"));
        assertThat(router(plan, "east", "submariner_router").chassis()).isEmpty();
        assertThat(plan.segment("east/ovn/submariner_gateway").orElseThrow().attachments())
                .containsExactly(new Segment.Attachment(HostId.node("east", "submariner_router"), "submariner_up_lrp"));
        assertThat(plan.ovn("east").orElseThrow().switches()).filteredOn(s -> s.name().equals("submariner_gateway"))
                .singleElement().satisfies(s -> assertThat(s.ports()).extracting(p -> p.name()).containsExactly("submariner_up_lsp"));
        assertThat(router(plan, "west", "submariner_router").chassis()).contains("west-gw");
    }

    @Test
    void onlyTheChassisGatewaysOvnK8sSub0MeetsSubmarinerRouterOnSubmarinerGateway() {
        ClusterSetPlan plan = globalnet();
        Segment gateway = plan.segment("east/ovn/submariner_gateway").orElseThrow();
        assertThat(gateway.attachments()).containsExactlyInAnyOrder(
                new Segment.Attachment(HostId.node("east", "submariner_router"), "submariner_up_lrp"),
                new Segment.Attachment(HostId.node("east", "east-gw"), "ovn-k8s-sub0"));
        for (String node : List.of("east-gw", "east-worker")) {
            Interface sub0 = plan.host(HostId.node("east", node)).orElseThrow().interfaces().stream()
                    .filter(i -> i.name().equals("ovn-k8s-sub0")).findFirst().orElseThrow();
            assertThat(sub0.addresses()).containsExactly(ip("169.254.254.10"));
        }
        assertThat(plan.ovn("east").orElseThrow().bridges()).extracting(b -> b.node() + " " + b.bridge() + " " + b.internalPort())
                .containsExactly("east-gw br-submariner ovn-k8s-sub0", "east-worker br-submariner ovn-k8s-sub0");
    }

    @Test
    void podsArePortsOfTheirNodesSwitchWithTheNodesRouterPortAsGateway() {
        ClusterSetPlan plan = globalnet();
        Segment nodeSwitch = plan.segment("east/ovn/east-worker").orElseThrow();
        assertThat(nodeSwitch.attachments()).containsExactlyInAnyOrder(
                new Segment.Attachment(HostId.node("east", "ovn_cluster_router"), "rtos-east-worker"),
                new Segment.Attachment(HostId.node("east", "east-worker"), "ovn-k8s-mp0"),
                new Segment.Attachment(HostId.pod("east", "default", "web"), "eth0"));
        assertThat(router(plan, "east", "ovn_cluster_router").port("rtos-east-worker").orElseThrow().address()).isEqualTo(ip("10.244.1.2"));
        DataplanePlan pod = plan.host(HostId.pod("east", "default", "web")).orElseThrow().environment();
        assertThat(pod.routesIn(Route.MAIN_TABLE)).singleElement()
                .satisfies(r -> assertThat(r.nexthops().getFirst().via()).contains(ip("10.244.1.2")));
        assertThat(plan.host(HostId.node("east", "east-worker")).orElseThrow().kubeProxy().isEmpty()).isTrue();
    }

    @Test
    void table150OnEveryNodeRoutesRemoteCidrsAndADefaultIntoOvnThroughTheManagementPort() {
        for (String node : List.of("east-gw", "east-worker")) {
            DataplanePlan plan = submariner(globalnet(), "east", node);
            assertThat(plan.routesIn(150)).extracting(r -> r.destination() + " " + r.nexthops().getFirst().device())
                    .containsExactly("242.1.0.0/16 ovn-k8s-mp0", "0.0.0.0/0 ovn-k8s-mp0");
            assertThat(plan.rules()).contains(new PolicyRule(150, Optional.empty(), Optional.of(net("242.1.0.0/16")),
                    java.util.OptionalInt.empty(), Optional.empty(), 150));
            assertThat(plan.vxlanDevices()).as("no vx-submariner on OVN").noneMatch(d -> d.name().equals("vx-submariner"));
        }
    }

    @Test
    void table149OnTheGatewaySendsRemoteTrafficForLocalCidrsThroughOvnK8sSub0() {
        DataplanePlan gateway = submariner(globalnet(), "west", "west-gw");
        assertThat(gateway.routesIn(149)).extracting(r -> r.destination() + " via " + r.nexthops().getFirst().via().orElseThrow()
                + " dev " + r.nexthops().getFirst().device())
                .containsExactly("10.244.0.0/16 via 169.254.254.9 dev ovn-k8s-sub0", "10.96.0.0/16 via 169.254.254.9 dev ovn-k8s-sub0");
        assertThat(gateway.rules()).filteredOn(r -> r.table() == 149).allSatisfy(r -> {
            assertThat(r.priority()).isEqualTo(149);
            assertThat(r.from()).contains(net("242.0.0.0/16"));
        }).hasSize(2);
        assertThat(submariner(globalnet(), "west", "west-worker").routesIn(149)).isEmpty();
    }

    @Test
    void theGatewaysPostroutingLeavesTrafficIntoOvnUntranslatedAfterGlobalnetsJump() {
        assertThat(rules(submariner(globalnet(), "west", "west-gw"), Table.NAT, "SUBMARINER-POSTROUTING"))
                .containsExactly("-j SUBMARINER-GN-EGRESS", "-o ovn-k8s-sub0 -j ACCEPT");
        assertThat(rules(submariner(globalnet(), "west", "west-worker"), Table.NAT, "SUBMARINER-POSTROUTING")).isEmpty();
    }

    @Test
    void ovnKubernetesDnatsTheExportedServicesGlobalIpToItsClusterIpInPrerouting() {
        DataplanePlan environment = globalnet().host(HostId.node("west", "west-gw")).orElseThrow().environment();
        assertThat(rules(environment, Table.NAT, "PREROUTING")).singleElement().asString()
                .startsWith("-d 242.1.255.254/32 -p tcp").contains("--dport 8080").endsWith("-j DNAT --to-destination 10.96.0.50:8080");
    }
}
