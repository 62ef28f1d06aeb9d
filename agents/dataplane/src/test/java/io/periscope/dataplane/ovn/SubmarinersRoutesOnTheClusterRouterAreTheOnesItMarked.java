package io.periscope.dataplane.ovn;

import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under upstream's design ({@code behaviour: upstream}) Submariner's route agent writes static routes on
 * {@code ovn_cluster_router}, a router OVN-Kubernetes owns, and marks them {@code external_ids:submariner}
 * (upstream's {@code ovn_logical_routes.go}): the mark, not the router, makes a route Submariner's, so a
 * gateway move replaces Submariner's routes and leaves OVN-Kubernetes' own routes there alone.
 */
class SubmarinersRoutesOnTheClusterRouterAreTheOnesItMarked {

    private static final Ipv4Prefix REMOTE = Ipv4Prefix.parse("242.1.0.0/16");

    /** ovn_cluster_router as OVN-Kubernetes builds it, with Submariner's reroute and route to the gateway's ovn-k8s-mp0. */
    private static OvnTopology upstream(String managementPort) {
        Ipv4Address gateway = Ipv4Address.parse(managementPort);
        LogicalRouter cluster = new LogicalRouter("ovn_cluster_router",
                List.of(new RouterPort("rtos-n1", MacAddress.parse("0a:00:00:00:00:01"), Ipv4Address.parse("10.244.0.1"),
                        Ipv4Prefix.parse("10.244.0.0/24"), "n1")),
                List.of(RouterPolicy.reroute(20000, REMOTE, gateway)),
                List.of(new StaticRoute(Ipv4Prefix.parse("10.244.0.0/24"), Ipv4Address.parse("100.64.0.2"), Optional.empty(), StaticRoute.Policy.SRC_IP),
                        new StaticRoute(REMOTE, gateway, Optional.empty(), StaticRoute.Policy.DST_IP, true)),
                Optional.empty(), List.of());
        return new OvnTopology("east", List.of(cluster), List.of(
                new LogicalSwitch("n1", List.of(new LogicalSwitch.SwitchPort("stor-n1", LogicalSwitch.Kind.ROUTER, "ovn_cluster_router/rtos-n1")),
                        List.of())), List.of(), List.of());
    }

    @Test
    void theMarkMakesARouteOnTheClusterRouterSubmariners() {
        NbRow.RouteRow marked = new NbRow.RouteRow("ovn_cluster_router", "242.1.0.0/16", "10.244.0.2", Optional.empty(), "dst-ip", true);
        NbRow.RouteRow unmarked = new NbRow.RouteRow("ovn_cluster_router", "242.1.0.0/16", "10.244.0.2", Optional.empty(), "dst-ip", false);

        assertThat(NorthboundScope.SUBMARINER.owns(marked)).isTrue();
        assertThat(NorthboundScope.OVN_KUBERNETES.owns(marked)).isFalse();
        assertThat(NorthboundScope.SUBMARINER.owns(unmarked)).isFalse();
        assertThat(NorthboundScope.OVN_KUBERNETES.owns(unmarked)).isTrue();
    }

    @Test
    void aGatewayMoveReplacesSubmarinersPolicyAndRouteAndNothingOfOvnKubernetes() {
        RecordingNorthbound northbound = new RecordingNorthbound(List.of());
        new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(upstream("10.244.0.2"));
        NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        assertThat(submariner.program(upstream("10.244.0.2"))).extracting(c -> c.getClass().getSimpleName() + " " + c.row())
                .containsExactlyInAnyOrder(
                        "Create PolicyRow[router=ovn_cluster_router, priority=20000, match=ip4.dst == 242.1.0.0/16, action=reroute, nexthops=[10.244.0.2]]",
                        "Create RouteRow[router=ovn_cluster_router, prefix=242.1.0.0/16, nexthop=10.244.0.2, outputPort=Optional.empty, policy=dst-ip, submariner=true]");

        List<NbChange> moved = submariner.program(upstream("10.244.2.2"));

        assertThat(moved).extracting(c -> c.getClass().getSimpleName() + " " + c.row()).containsExactlyInAnyOrder(
                // ovn-nbctl refuses a second policy of the same priority and match in one transaction: updated in place.
                "Update PolicyRow[router=ovn_cluster_router, priority=20000, match=ip4.dst == 242.1.0.0/16, action=reroute, nexthops=[10.244.2.2]]",
                "Delete RouteRow[router=ovn_cluster_router, prefix=242.1.0.0/16, nexthop=10.244.0.2, outputPort=Optional.empty, policy=dst-ip, submariner=true]",
                "Create RouteRow[router=ovn_cluster_router, prefix=242.1.0.0/16, nexthop=10.244.2.2, outputPort=Optional.empty, policy=dst-ip, submariner=true]");
        assertThat(northbound.read().plain()).contains(
                new NbRow.RouteRow("ovn_cluster_router", "10.244.0.0/24", "100.64.0.2", Optional.empty(), "src-ip", false));
    }

    @Test
    void anUnmarkedRouteOfTheSamePrefixIsOvnKubernetesAndStays() {
        // Someone else's route to the same CIDR, as an operator might add by hand: not Submariner's to delete.
        List<NbRow> before = new ArrayList<>(DesiredNorthbound.of(upstream("10.244.0.2")).plain().stream()
                .filter(NorthboundScope.OVN_KUBERNETES::owns).toList());
        NbRow.RouteRow foreign = new NbRow.RouteRow("ovn_cluster_router", "242.1.0.0/16", "10.244.9.9", Optional.empty(), "dst-ip", false);
        before.add(foreign);
        RecordingNorthbound northbound = new RecordingNorthbound(before);

        new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(upstream("10.244.0.2"));

        assertThat(northbound.read().plain()).contains(foreign,
                new NbRow.RouteRow("ovn_cluster_router", "242.1.0.0/16", "10.244.0.2", Optional.empty(), "dst-ip", true));
    }

    @Test
    void aMarkedRouteIsCreatedWithItsMarkInTheSameTransactionAndReadBackMarked() {
        String listing = String.join("\n",
                "{\"data\":[],\"headings\":[\"_uuid\",\"external_ids\",\"name\",\"options\",\"protocol\",\"vips\"]}",
                "{\"data\":[],\"headings\":[\"_uuid\",\"load_balancer\",\"name\"]}",
                "{\"data\":[],\"headings\":[\"_uuid\",\"name\",\"ports\",\"load_balancer_group\"]}",
                "{\"data\":[],\"headings\":[\"_uuid\",\"name\",\"type\",\"options\",\"addresses\"]}",
                "{\"data\":[[[\"uuid\",\"1e3afdb3-c5dd-48fc-8269-03f9a6815451\"],\"ovn_cluster_router\",[\"map\",[]],[\"set\",[]],[\"set\",[]],[\"set\",[]],"
                        + "[\"set\",[[\"uuid\",\"14b35158-bbc2-4f05-a80a-f83d8dd01f02\"],[\"uuid\",\"24b35158-bbc2-4f05-a80a-f83d8dd01f02\"]]]]],"
                        + "\"headings\":[\"_uuid\",\"name\",\"options\",\"load_balancer_group\",\"ports\",\"policies\",\"static_routes\"]}",
                "{\"data\":[],\"headings\":[\"_uuid\",\"external_ids\",\"mac\",\"name\",\"networks\"]}",
                "{\"data\":[],\"headings\":[\"_uuid\",\"action\",\"external_ids\",\"match\",\"nexthop\",\"nexthops\",\"options\",\"priority\"]}",
                "{\"data\":[[[\"uuid\",\"14b35158-bbc2-4f05-a80a-f83d8dd01f02\"],[\"set\",[]],[\"map\",[[\"submariner\",\"v0.19.0\"]]],\"242.1.0.0/16\",\"10.244.0.2\","
                        + "[\"map\",[]],[\"set\",[]],\"dst-ip\",\"\"],"
                        + "[[\"uuid\",\"24b35158-bbc2-4f05-a80a-f83d8dd01f02\"],[\"set\",[]],[\"map\",[]],\"10.244.0.0/24\",\"100.64.0.2\","
                        + "[\"map\",[]],[\"set\",[]],\"src-ip\",\"\"]],"
                        + "\"headings\":[\"_uuid\",\"bfd\",\"external_ids\",\"ip_prefix\",\"nexthop\",\"options\",\"output_port\",\"policy\",\"route_table\"]}") + "\n";
        RecordingCommandRunner runner = new RecordingCommandRunner().answer(List.of("ovn-nbctl", "--db=unix:/nb", "--format=json"), listing);
        NbctlNorthbound northbound = new NbctlNorthbound(runner, "unix:/nb");

        NorthboundState read = northbound.read();
        // Upstream's own mark (its version as the value) is read as Submariner's as much as Periscope's.
        assertThat(read.plain()).contains(
                new NbRow.RouteRow("ovn_cluster_router", "242.1.0.0/16", "10.244.0.2", Optional.empty(), "dst-ip", true),
                new NbRow.RouteRow("ovn_cluster_router", "10.244.0.0/24", "100.64.0.2", Optional.empty(), "src-ip", false));

        northbound.apply(List.of(new NbChange.Create(
                new NbRow.RouteRow("ovn_cluster_router", "10.1.2.3/32", "10.244.2.2", Optional.empty(), "dst-ip", true))), read);
        assertThat(runner.commands().getLast().argv()).containsExactly("ovn-nbctl", "--db=unix:/nb",
                "--", "--id=@row0", "create", "logical_router_static_route", "ip_prefix=\"10.1.2.3\"", "nexthop=\"10.244.2.2\"",
                "policy=\"dst-ip\"", "external_ids:submariner=\"periscope\"",
                "--", "add", "Logical_Router", "ovn_cluster_router", "static_routes", "@row0");
    }
}
