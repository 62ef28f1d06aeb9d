package io.periscope.dataplane.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.ovn.LoadBalancer;
import io.periscope.plan.ovn.LoadBalancerGroup;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NorthboundProgrammerChangesOnlyItsScopesDifference {

    private static OvnTopology topology(String remote) {
        Ipv4Prefix join = Ipv4Prefix.parse("169.254.254.0/29");
        Ipv4Prefix gateway = Ipv4Prefix.parse("169.254.254.8/29");
        LogicalRouter cluster = new LogicalRouter("ovn_cluster_router", List.of(
                new RouterPort("rtos-n1", MacAddress.parse("0a:00:00:00:00:01"), ip("10.244.0.2"), Ipv4Prefix.parse("10.244.0.0/24"), "n1"),
                new RouterPort("ovn_cluster_subm_lrp", MacAddress.parse("0a:00:00:00:00:02"), ip("169.254.254.2"), join, "submariner_join")),
                List.of(RouterPolicy.reroute(20000, Ipv4Prefix.parse(remote), ip("169.254.254.1"))), List.of(), Optional.empty(), List.of());
        LogicalRouter submariner = new LogicalRouter("submariner_router", List.of(
                new RouterPort("submariner_j_lrp", MacAddress.parse("0a:00:00:00:00:03"), ip("169.254.254.1"), join, "submariner_join"),
                new RouterPort("submariner_up_lrp", MacAddress.parse("0a:00:00:00:00:04"), ip("169.254.254.9"), gateway, "submariner_gateway")),
                List.of(), List.of(StaticRoute.toward(Ipv4Prefix.parse(remote), ip("169.254.254.10"), "submariner_up_lrp")),
                Optional.of("n1"), List.of("clusterLBGroup"));
        LoadBalancer lb = new LoadBalancer("svc", ip("10.96.0.50"), 8080, Protocol.TCP, List.of(new LoadBalancer.Backend(ip("10.244.0.10"), 8080)));
        return new OvnTopology("east", List.of(cluster, submariner), List.of(
                new LogicalSwitch("n1", List.of(new LogicalSwitch.SwitchPort("stor-n1", LogicalSwitch.Kind.ROUTER, "ovn_cluster_router/rtos-n1")),
                        List.of("clusterLBGroup")),
                new LogicalSwitch("submariner_join", List.of(
                        new LogicalSwitch.SwitchPort("submariner_j_lsp", LogicalSwitch.Kind.ROUTER, "submariner_router/submariner_j_lrp")), List.of()),
                new LogicalSwitch("submariner_gateway", List.of(
                        new LogicalSwitch.SwitchPort("submariner_localnet", LogicalSwitch.Kind.LOCALNET, "east/n1 ovn-k8s-sub0")), List.of())),
                List.of(new LoadBalancerGroup("clusterLBGroup", List.of(lb))), List.of());
    }

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void aSecondRunWithTheSamePlanChangesNothing() {
        RecordingNorthbound northbound = new RecordingNorthbound(List.of());
        new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(topology("242.1.0.0/16"));
        NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        assertThat(submariner.program(topology("242.1.0.0/16"))).hasSize(10);

        assertThat(submariner.program(topology("242.1.0.0/16"))).isEmpty();
        assertThat(northbound.read().plain()).containsExactlyInAnyOrderElementsOf(DesiredNorthbound.of(topology("242.1.0.0/16")).plain());
    }

    @Test
    void anotherRemoteCidrReplacesSubmarinersPolicyAndRouteOnly() {
        // What OVN-Kubernetes built, with a policy of its own on the shared router that no plan knows.
        List<NbRow> ovnKubernetes = new java.util.ArrayList<>(DesiredNorthbound.of(topology("242.1.0.0/16")).plain().stream()
                .filter(NorthboundScope.OVN_KUBERNETES::owns).toList());
        ovnKubernetes.add(new NbRow.PolicyRow("ovn_cluster_router", 1004, "ip4.dst == 192.168.10.2", "reroute", List.of("10.244.0.2")));
        RecordingNorthbound northbound = new RecordingNorthbound(ovnKubernetes);
        NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        submariner.program(topology("242.1.0.0/16"));

        List<NbChange> changes = submariner.program(topology("242.2.0.0/16"));

        assertThat(changes).extracting(c -> c.getClass().getSimpleName() + " " + c.row()).containsExactlyInAnyOrder(
                "Delete PolicyRow[router=ovn_cluster_router, priority=20000, match=ip4.dst == 242.1.0.0/16, action=reroute, nexthops=[169.254.254.1]]",
                "Delete RouteRow[router=submariner_router, prefix=242.1.0.0/16, nexthop=169.254.254.10, outputPort=Optional[submariner_up_lrp], policy=dst-ip, submariner=false]",
                "Create PolicyRow[router=ovn_cluster_router, priority=20000, match=ip4.dst == 242.2.0.0/16, action=reroute, nexthops=[169.254.254.1]]",
                "Create RouteRow[router=submariner_router, prefix=242.2.0.0/16, nexthop=169.254.254.10, outputPort=Optional[submariner_up_lrp], policy=dst-ip, submariner=false]");
        assertThat(northbound.read().plain()).contains(
                new NbRow.PolicyRow("ovn_cluster_router", 1004, "ip4.dst == 192.168.10.2", "reroute", List.of("10.244.0.2")));
    }

    @Test
    void aMovedChassisIsAnUpdateOfTheRouterNotANewRouter() {
        RecordingNorthbound northbound = new RecordingNorthbound(List.of());
        new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(topology("242.1.0.0/16"));
        NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        submariner.program(topology("242.1.0.0/16"));
        OvnTopology moved = topology("242.1.0.0/16");
        LogicalRouter router = moved.router("submariner_router").orElseThrow();
        moved = new OvnTopology("east", List.of(moved.routers().getFirst(), new LogicalRouter(router.name(), router.ports(), router.policies(),
                router.staticRoutes(), Optional.of("n2"), router.loadBalancerGroups())), moved.switches(), moved.loadBalancerGroups(), List.of());

        List<NbChange> changes = submariner.program(moved);

        assertThat(changes).singleElement().isInstanceOf(NbChange.Update.class)
                .extracting(NbChange::row).isEqualTo(new NbRow.RouterRow("submariner_router", Optional.of("n2"), new java.util.TreeSet<>(List.of("clusterLBGroup"))));
    }

    @Test
    void submarinersPartRefusesToStartBeforeOvnKubernetesBuiltItsRouter() {
        RecordingNorthbound northbound = new RecordingNorthbound(List.of());
        assertThatThrownBy(() -> new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(topology("242.1.0.0/16")))
                .hasMessageContaining("it lacks logical_router ovn_cluster_router (needed by logical_router_port ovn_cluster_router/ovn_cluster_subm_lrp)");
        assertThat(northbound.transactions()).isEmpty();
    }
}
