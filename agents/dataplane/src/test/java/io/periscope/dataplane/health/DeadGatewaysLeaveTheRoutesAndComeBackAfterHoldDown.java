package io.periscope.dataplane.health;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole loop on a real kernel: probes over veths, a {@link HealthChecker} declaring a blackholed
 * gateway down, and a {@link Reconciler} programming {@code withdraw(plan, down)}. What is asserted is
 * the kernel's routes, waited for with a generous bound (this is not a timing test: the benchmark
 * measures how fast).
 */
class DeadGatewaysLeaveTheRoutesAndComeBackAfterHoldDown {

    private static final HealthSettings SETTINGS = new HealthSettings(Duration.ofMillis(40), 3, Duration.ofMillis(500));
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    private WatchedGateways lab;
    private HealthChecker checker;

    @AfterEach
    void unwire() {
        if (checker != null) {
            checker.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    private static Ipv4Address gateway(int n) {
        return Ipv4Address.parse(WatchedGateways.address(n));
    }

    private void watch(DataplanePlan plan) {
        Reconciler reconciler = new Reconciler(lab.node.runner(), Ownership.submariner());
        reconciler.reconcile(plan);
        checker = new HealthChecker(HealthTargets.of(plan, address -> null), IcmpEchoProber.openIn(lab.node.name()), SETTINGS,
                Clock.systemUTC(), view -> reconciler.reconcile(NexthopWithdrawal.withdraw(plan, view.withdrawn())));
        checker.start();
    }

    @Test
    void aMultipathRouteDropsTheSilentGatewayAndTakesItBack() {
        lab = new WatchedGateways(2);
        Route route = Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.parse("10.99.0.0/16"),
                List.of(Nexthop.via(gateway(1), "gw1"), Nexthop.via(gateway(2), "gw2")), RouteProtocol.STATIC);
        watch(new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(route), List.of(), Map.of()));
        await(() -> nexthopsOfRoute().equals(List.of("10.77.1.2", "10.77.2.2")), "both gateways in the route");

        lab.blackhole(2);
        await(() -> nexthopsOfRoute().equals(List.of("10.77.1.2")), "gateway 2 withdrawn from the route");
        assertThat(checker.view().down()).containsExactly("10.77.2.2");

        lab.heal(2);
        await(() -> nexthopsOfRoute().equals(List.of("10.77.1.2", "10.77.2.2")), "gateway 2 back in the route");
        assertThat(checker.view().down()).isEmpty();
    }

    @Test
    void aResilientGroupMovesOnlyTheDeadGatewaysBuckets() {
        lab = new WatchedGateways(3);
        List<NexthopObject> objects = List.of(new NexthopObject(1, gateway(1), "gw1", false),
                new NexthopObject(2, gateway(2), "gw2", false), new NexthopObject(3, gateway(3), "gw3", false));
        NexthopGroup group = new NexthopGroup(10, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1),
                new NexthopGroup.Member(3, 1)), true, 48);
        Route route = new Route(Route.MAIN_TABLE, Ipv4Prefix.parse("10.98.0.0/16"), io.periscope.plan.routing.RouteType.UNICAST,
                List.of(), OptionalInt.of(10), Optional.empty(), 0, RouteProtocol.STATIC);
        watch(new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(), objects, List.of(group), List.of(route), List.of(), Map.of()));
        await(() -> buckets().size() == 48 && Set.copyOf(buckets().values()).size() == 3, "the group spread over the three gateways");
        Map<Integer, Integer> before = buckets();
        assertThat(before).hasSize(48);
        assertThat(before.values()).containsOnly(1, 2, 3);

        lab.blackhole(3);
        await(() -> !buckets().containsValue(3), "gateway 3's buckets moved");
        Map<Integer, Integer> after = buckets();
        before.forEach((bucket, nexthop) -> {
            if (nexthop != 3) {
                assertThat(after.get(bucket)).as("bucket %d of a surviving gateway", bucket).isEqualTo(nexthop);
            }
        });
        assertThat(after).hasSize(48);
        assertThat(lab.node.run("ip", "route", "show", "10.98.0.0/16")).as("the route still uses the group").contains("nhid 10");
    }

    private List<String> nexthopsOfRoute() {
        try {
            JsonNode routes = JSON.readTree(lab.node.run("ip", "-j", "route", "show", "10.99.0.0/16"));
            if (routes.isEmpty()) {
                return List.of();
            }
            JsonNode route = routes.get(0);
            if (route.has("nexthops")) {
                return java.util.stream.StreamSupport.stream(route.get("nexthops").spliterator(), false)
                        .map(nh -> nh.get("gateway").asText()).sorted().toList();
            }
            return List.of(route.get("gateway").asText());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Bucket index to nexthop id of group 10, as the kernel holds them. */
    private Map<Integer, Integer> buckets() {
        try {
            Map<Integer, Integer> buckets = new TreeMap<>();
            for (JsonNode bucket : JSON.readTree(lab.node.run("ip", "-j", "nexthop", "bucket", "show", "id", "10"))) {
                buckets.put(bucket.get("bucket").get("index").asInt(), bucket.get("bucket").get("nhid").asInt());
            }
            return buckets;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(Supplier<Boolean> condition, String what) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen within " + PATIENCE.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }
}
