package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyRoutingFollowsRulesAndPrefixes {

    private static final Ipv4Address ANY = Ipv4Address.ANY;

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static RoutingPolicy policy(List<PolicyRule> rules, String... routes) {
        List<Route> parsed = Arrays.stream(routes).map(io.periscope.simulator.PlanFixture::parseRoute).toList();
        DataplanePlan plan = new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                parsed, rules, Map.of());
        return RoutingPolicy.compile("test", plan, Map.of(ip("10.0.0.1"), "eth0"));
    }

    private static RouteDecision.Forward forward(RouteDecision d) {
        assertThat(d).isInstanceOf(RouteDecision.Forward.class);
        return (RouteDecision.Forward) d;
    }

    @Test
    void aRuleWhoseTableHasNoMatchFallsThroughToTheNextRule() {
        RoutingPolicy policy = policy(List.of(PolicyRule.lookup(100, 100)),
                "table 100 10.2.0.0/16 via 172.18.0.7 dev eth0", "default via 172.18.0.1 dev eth0");

        RouteDecision.Forward remote = forward(policy.lookup(ip("10.2.3.4"), ANY, 0, "eth1", null));
        assertThat(remote.table()).isEqualTo("100");
        assertThat(remote.nexthops().getFirst().via()).contains(ip("172.18.0.7"));

        RouteDecision.Forward other = forward(policy.lookup(ip("10.3.0.1"), ANY, 0, "eth1", null));
        assertThat(other.table()).isEqualTo("main");
        assertThat(other.nexthops().getFirst().via()).contains(ip("172.18.0.1"));
    }

    @Test
    void theLongestPrefixWinsAndAmongEqualPrefixesTheLowestMetric() {
        RoutingPolicy policy = policy(List.of(),
                "10.0.0.0/8 via 172.18.0.8 dev eth0",
                "10.2.0.0/16 via 172.18.0.16 dev eth0 metric 100",
                "10.2.0.0/16 via 172.18.0.17 dev eth0 metric 50",
                "10.2.3.0/24 via 172.18.0.24 dev eth0 metric 500");

        assertThat(forward(policy.lookup(ip("10.2.3.9"), ANY, 0, "lo", null)).nexthops().getFirst().via()).contains(ip("172.18.0.24"));
        assertThat(forward(policy.lookup(ip("10.2.4.9"), ANY, 0, "lo", null)).nexthops().getFirst().via()).contains(ip("172.18.0.17"));
        assertThat(forward(policy.lookup(ip("10.9.4.9"), ANY, 0, "lo", null)).nexthops().getFirst().via()).contains(ip("172.18.0.8"));
        assertThat(policy.lookup(ip("11.0.0.1"), ANY, 0, "lo", null)).isInstanceOf(RouteDecision.NoRoute.class);
    }

    @Test
    void rulesSelectOnSourceDestinationMarkAndInputInterface() {
        RoutingPolicy policy = policy(List.of(
                        new PolicyRule(10, Optional.of(Ipv4Prefix.parse("10.1.0.0/16")), Optional.empty(), OptionalInt.empty(), Optional.empty(), 110),
                        new PolicyRule(20, Optional.empty(), Optional.empty(), OptionalInt.of(0x40), Optional.empty(), 120),
                        new PolicyRule(30, Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.of("vx0"), 130),
                        new PolicyRule(40, Optional.empty(), Optional.of(Ipv4Prefix.parse("10.9.0.0/16")), OptionalInt.empty(), Optional.empty(), 140)),
                "table 110 default dev eth1", "table 120 default dev eth2", "table 130 default dev eth3",
                "table 140 default dev eth4", "default dev eth0");

        assertThat(forward(policy.lookup(ip("10.5.0.1"), ip("10.1.0.9"), 0, "eth0", null)).table()).isEqualTo("110");
        assertThat(forward(policy.lookup(ip("10.5.0.1"), ip("10.2.0.9"), 0x40, "eth0", null)).table()).isEqualTo("120");
        assertThat(forward(policy.lookup(ip("10.5.0.1"), ip("10.2.0.9"), 0x41, "vx0", null)).table()).isEqualTo("130");
        assertThat(forward(policy.lookup(ip("10.9.0.1"), ip("10.2.0.9"), 0, "eth0", null)).table()).isEqualTo("140");
        assertThat(forward(policy.lookup(ip("10.5.0.1"), ip("10.2.0.9"), 0, "eth0", null)).table()).isEqualTo("main");
    }

    @Test
    void theHostsOwnAddressesAreDeliveredLocallyBeforeAnyTable() {
        RoutingPolicy policy = policy(List.of(PolicyRule.lookup(5, 100)), "table 100 default via 172.18.0.1 dev eth0");
        assertThat(policy.lookup(ip("10.0.0.1"), ANY, 0, "eth0", null)).isInstanceOfSatisfying(RouteDecision.Local.class,
                l -> assertThat(l.device()).isEqualTo("eth0"));
        assertThat(policy.lookup(ip("127.0.0.1"), ANY, 0, "lo", null)).isInstanceOf(RouteDecision.Local.class);
    }

    @Test
    void aBlackholeRouteEndsTheLookupInsteadOfFallingThrough() {
        RoutingPolicy policy = policy(List.of(PolicyRule.lookup(100, 100)),
                "table 100 blackhole 10.2.0.0/16", "10.2.0.0/16 via 172.18.0.1 dev eth0");
        assertThat(policy.lookup(ip("10.2.0.1"), ANY, 0, "eth0", null)).isInstanceOfSatisfying(RouteDecision.Reject.class,
                r -> assertThat(r.route().text()).isEqualTo("blackhole 10.2.0.0/16 proto static"));
    }

    @Test
    void aLookupBoundToAnUnderlayDeviceSkipsRoutesThroughOtherDevices() {
        RoutingPolicy policy = policy(List.of(),
                "172.18.0.0/24 dev vx0", "172.18.0.0/16 via 172.17.0.1 dev eth0");
        assertThat(forward(policy.lookup(ip("172.18.0.9"), ANY, 0, "lo", null)).nexthops().getFirst().device()).isEqualTo("vx0");
        assertThat(forward(policy.lookup(ip("172.18.0.9"), ANY, 0, "lo", "eth0")).nexthops().getFirst().device()).isEqualTo("eth0");
    }
}
