package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class NexthopWithdrawalTakesOnlyTheDeadGatewaysChoices {

    private static final Ipv4Address GW1 = Ipv4Address.parse("240.18.0.6");
    private static final Ipv4Address GW2 = Ipv4Address.parse("240.18.0.7");
    private static final Ipv4Address GW3 = Ipv4Address.parse("240.18.0.8");
    private static final Ipv4Prefix REMOTE = Ipv4Prefix.parse("10.1.0.0/16");

    private static DataplanePlan plan(List<Route> routes, List<NexthopObject> objects, List<NexthopGroup> groups) {
        return new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(), objects, groups, routes, List.of(), Map.of());
    }

    private static Route multipath(Ipv4Address... gateways) {
        return Route.unicast(100, REMOTE, java.util.Arrays.stream(gateways).map(g -> Nexthop.onlink(g, "vx-submariner")).toList(), RouteProtocol.STATIC);
    }

    @Test
    void aMultipathRouteLosesTheDeadGatewaysNexthopOnly() {
        DataplanePlan withdrawn = NexthopWithdrawal.withdraw(plan(List.of(multipath(GW1, GW2, GW3)), List.of(), List.of()), Set.of(GW2));

        assertThat(withdrawn.routes()).singleElement().satisfies(route ->
                assertThat(route.nexthops()).extracting(nh -> nh.via().orElseThrow()).containsExactly(GW1, GW3));
    }

    @Test
    void aRouteWhoseEveryChoiceIsDownKeepsThemAll() {
        DataplanePlan plan = plan(List.of(multipath(GW1, GW2)), List.of(), List.of());
        assertThat(NexthopWithdrawal.withdraw(plan, Set.of(GW1, GW2))).isEqualTo(plan);
    }

    @Test
    void aSingleNexthopRouteIsThePlansWhateverTheHealth() {
        Route pinned = Route.unicast(100, Ipv4Prefix.parse("242.254.2.1/32"), List.of(Nexthop.onlink(GW2, "vx-submariner")), RouteProtocol.STATIC);
        DataplanePlan plan = plan(List.of(pinned, multipath(GW1, GW2)), List.of(), List.of());

        DataplanePlan withdrawn = NexthopWithdrawal.withdraw(plan, Set.of(GW2));
        assertThat(withdrawn.routes().get(0)).isEqualTo(pinned);
        assertThat(withdrawn.routes().get(1).nexthops()).hasSize(1);
    }

    @Test
    void nexthopGroupsPlainAndResilientLoseTheDeadMemberAndKeepTheirKind() {
        List<NexthopObject> objects = List.of(new NexthopObject(1, GW1, "vx-submariner", true),
                new NexthopObject(2, GW2, "vx-submariner", true), new NexthopObject(3, GW3, "vx-submariner", true));
        List<NexthopGroup.Member> members = List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1), new NexthopGroup.Member(3, 1));
        NexthopGroup plain = new NexthopGroup(10, members, false, 0);
        NexthopGroup resilient = new NexthopGroup(11, members, true, 128);

        DataplanePlan withdrawn = NexthopWithdrawal.withdraw(plan(List.of(), objects, List.of(plain, resilient)), Set.of(GW3));

        assertThat(withdrawn.nexthops()).as("the objects stay: only group membership changes").isEqualTo(objects);
        assertThat(withdrawn.nexthopGroups()).containsExactly(
                new NexthopGroup(10, members.subList(0, 2), false, 0),
                new NexthopGroup(11, members.subList(0, 2), true, 128));
    }

    @Test
    void nothingDownIsThePlanItself() {
        DataplanePlan plan = plan(List.of(multipath(GW1, GW2)), List.of(), List.of());
        assertThat(NexthopWithdrawal.withdraw(plan, Set.of())).isSameAs(plan);
    }
}
