package io.periscope.dataplane.iproute;

import io.periscope.dataplane.Captured;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IprouteJsonParserReadsCapturedOutput {

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static Ipv4Prefix cidr(String text) {
        return Ipv4Prefix.parse(text);
    }

    private final List<Route> routes = IprouteJsonParser.routes(Captured.read("ip-route.json"));

    private Route route(int table, String destination) {
        return routes.stream().filter(r -> r.table() == table && r.destination().equals(cidr(destination))).findFirst().orElseThrow();
    }

    @Test
    void seedMultipathRouteInTable100() {
        assertThat(route(100, "100.2.0.0/16")).isEqualTo(new Route(100, cidr("100.2.0.0/16"), RouteType.UNICAST,
                List.of(Nexthop.via(ip("241.18.0.4"), "vxlan-tunnel"), Nexthop.via(ip("241.18.0.9"), "vxlan-tunnel")),
                OptionalInt.empty(), Optional.of(ip("10.0.0.1")), 100, RouteProtocol.STATIC));
    }

    @Test
    void metric98ReturnRoutesAreHostPrefixesWithOnlink() {
        assertThat(route(100, "242.254.1.10/32")).isEqualTo(Route.unicast(100, cidr("242.254.1.10/32"),
                List.of(Nexthop.via(ip("241.18.0.8"), "vxlan-tunnel")), RouteProtocol.STATIC).withMetric(98));
        assertThat(route(100, "242.254.1.11/32").nexthops()).containsExactly(Nexthop.onlink(ip("241.18.0.8"), "vxlan-tunnel"));
    }

    @Test
    void aRouteThroughANexthopGroupKeepsOnlyItsId() {
        Route viaGroup = route(100, "242.254.2.0/24");

        assertThat(viaGroup.nexthopId()).hasValue(3);
        assertThat(viaGroup.nexthops()).isEmpty();
        assertThat(route(100, "10.3.0.0/16").nexthopId()).hasValue(4);
    }

    @Test
    void blackholeUnreachableDefaultAndMainTable() {
        assertThat(route(100, "242.254.9.0/24").type()).isEqualTo(RouteType.UNREACHABLE);
        assertThat(route(100, "242.254.8.0/24").type()).isEqualTo(RouteType.BLACKHOLE);
        assertThat(route(150, "0.0.0.0/0").nexthops()).containsExactly(Nexthop.via(ip("172.18.0.1"), "eth0"));
        assertThat(route(Route.MAIN_TABLE, "10.1.0.0/16").nexthops()).hasSize(2);
        assertThat(route(Route.MAIN_TABLE, "10.44.0.0/16").protocol()).isEqualTo(RouteProtocol.BOOT);
        assertThat(route(Route.MAIN_TABLE, "240.0.0.0/8")).isEqualTo(new Route(Route.MAIN_TABLE, cidr("240.0.0.0/8"), RouteType.UNICAST,
                List.of(Nexthop.direct("vx-submariner")), OptionalInt.empty(), Optional.of(ip("240.18.0.10")), 0, RouteProtocol.KERNEL));
    }

    @Test
    void otherProtocolsTypesAndTheLocalTableAreLeftOut() {
        assertThat(routes).noneMatch(r -> r.destination().equals(cidr("10.45.0.0/16")));
        assertThat(routes).noneMatch(r -> r.destination().equals(cidr("10.46.0.0/16")));
        assertThat(routes).noneMatch(r -> r.table() == 255);
    }

    @Test
    void rulesWithSelectorsTheModelLacksAreLeftOut() {
        List<PolicyRule> rules = IprouteJsonParser.rules(Captured.read("ip-rule.json"));

        assertThat(rules).containsExactly(
                PolicyRule.lookup(0, 255),
                PolicyRule.lookup(100, 100),
                new PolicyRule(150, Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.of("lo"), 150),
                new PolicyRule(200, Optional.of(cidr("10.0.0.0/16")), Optional.of(cidr("242.254.0.0/16")), OptionalInt.of(0xc0000),
                        Optional.empty(), 100),
                PolicyRule.lookup(32766, 254),
                PolicyRule.lookup(32767, 253));
    }

    @Test
    void nexthopObjectsPlainAndResilientGroups() {
        IprouteJsonParser.Nexthops nexthops = IprouteJsonParser.nexthops(Captured.read("ip-nexthop.json"));

        assertThat(nexthops.objects()).containsExactly(new NexthopObject(1, ip("241.18.0.4"), "vxlan-tunnel", false),
                new NexthopObject(2, ip("241.18.0.9"), "vxlan-tunnel", true));
        assertThat(nexthops.groups()).containsExactly(
                new NexthopGroup(3, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 3)), false, 0),
                new NexthopGroup(4, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1)), true, 64, 120));
    }

    @Test
    void aResilientGroupsIdleTimerIsReadAsTheKernelReportsIt() {
        IprouteJsonParser.Nexthops nexthops = IprouteJsonParser.nexthops("[{\"id\":4,\"group\":[{\"id\":1},{\"id\":2}],\"type\":\"resilient\","
                + "\"resilient_args\":{\"buckets\":64,\"idle_timer\":30,\"unbalanced_timer\":0,\"unbalanced_time\":0},\"flags\":[]}]");

        assertThat(nexthops.groups()).extracting(NexthopGroup::idleTimerSeconds).containsExactly(30);
    }

    @Test
    void vxlanDevicesWithTheirAddressAndMtu() {
        List<VxlanDevice> devices = IprouteJsonParser.vxlanDevices(Captured.read("ip-vxlan-addr.json"));

        assertThat(devices).containsExactly(
                new VxlanDevice("vx-submariner", 100, 4800, Optional.of(ip("172.18.0.10")), Optional.of("eth0"), 1450, ip("240.18.0.10"), cidr("240.0.0.0/8"), false),
                new VxlanDevice("vxlan-tunnel", 1000, 4500, Optional.of(ip("198.51.100.10")), Optional.of("wan0"), 1450, ip("241.18.0.10"), cidr("241.0.0.0/8"), false));
    }

    @Test
    void permanentNeighboursOnly() {
        assertThat(IprouteJsonParser.neighbours(Captured.read("ip-neigh.json"))).containsExactly(
                new Neighbour("eth0", ip("172.18.0.1"), MacAddress.parse("02:00:00:00:00:01")),
                new Neighbour("vxlan-tunnel", ip("241.18.0.4"), MacAddress.parse("02:41:ac:12:00:04")));
    }

    @Test
    void vxlanForwardingEntriesWithDestinationsOnly() {
        assertThat(IprouteJsonParser.fdb(Captured.read("bridge-fdb.json"))).containsExactly(
                new FdbEntry("vx-submariner", MacAddress.ZERO, ip("172.18.0.11")),
                new FdbEntry("vx-submariner", MacAddress.ZERO, ip("172.18.0.12")),
                new FdbEntry("vxlan-tunnel", MacAddress.parse("02:41:ac:12:00:04"), ip("198.51.100.4")),
                new FdbEntry("vxlan-tunnel", MacAddress.ZERO, ip("198.51.100.4")));
    }

    @Test
    void emptyOutputIsNothingAndGarbageIsAClearError() {
        assertThat(IprouteJsonParser.routes("[]")).isEmpty();
        assertThat(IprouteJsonParser.rules("")).isEmpty();
        assertThatThrownBy(() -> IprouteJsonParser.routes("Error: ipv4: FIB table does not exist."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("ip route output is not JSON");
    }
}
