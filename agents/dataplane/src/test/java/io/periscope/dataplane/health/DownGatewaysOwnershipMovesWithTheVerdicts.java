package io.periscope.dataplane.health;

import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.planner.DownGateways;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker under per-gateway egress ownership ({@code examples/mag-globalnet-egress.yaml}) whose
 * health checker hears the headless pod's owner go silent: the plan it programs steers the pod to
 * the other gateway, as the planner with that gateway down says, and withdraws the dead gateway from
 * the multipath route; once the owner answers again for the hold-down, the plan is the healthy one.
 */
class DownGatewaysOwnershipMovesWithTheVerdicts {

    private static final HealthSettings SETTINGS = new HealthSettings(Duration.ofMillis(20), 3, Duration.ofMillis(300));

    private final ScriptedProber prober = new ScriptedProber();
    private GatewayHealth health;

    @AfterEach
    void stop() {
        if (health != null) {
            health.close();
        }
    }

    @Test
    void theDeadOwnersPodGoesToTheSurvivorAndComesBackAfterHoldDown() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "..", "examples", "mag-globalnet-egress.yaml"));
        ClusterSetPlan healthy = Planner.plan(set);
        HostId worker = HostId.node("cluster1", "worker-1");
        Function<Set<String>, DataplanePlan> planFor = down -> Planner.replan(healthy, DownGateways.of(down)).host(worker).orElseThrow().submariner();
        Function<Ipv4Address, String> names = HealthTargets.gatewayNames(healthy);

        Cluster cluster1 = set.requireCluster("cluster1");
        Pod cache = cluster1.pods().stream().filter(p -> p.name().equals("cache-0")).findFirst().orElseThrow();
        String owner = HeadlessPodOwners.ownerOf(cluster1, cache).orElseThrow();
        String survivor = owner.equals("gw-1") ? "gw-2" : "gw-1";
        Ipv4Address ownerTunnel = tunnelOf(healthy, names, "cluster1/" + owner);

        health = new GatewayHealth(() -> prober, SETTINGS, Clock.systemUTC(), () -> { });
        DataplanePlan before = health.desired(planFor, names);
        assertThat(before).isEqualTo(planFor.apply(Set.of()));
        int ownerTable = table(before, cache);

        prober.silence(ownerTunnel);
        DataplanePlan during = await(planFor, names, p -> table(p, cache) != ownerTable);
        DataplanePlan expected = planFor.apply(Set.of("cluster1/" + owner));
        assertThat(table(during, cache)).isEqualTo(table(expected, cache));
        assertThat(during.routesIn(table(during, cache))).isNotEmpty().allSatisfy(r -> assertThat(r.nexthops()).singleElement()
                .satisfies(nh -> assertThat(nh.via()).contains(tunnelOf(healthy, names, "cluster1/" + survivor))));
        assertThat(during.routes()).as("the dead owner is out of the multipath route too")
                .allSatisfy(r -> assertThat(r.nexthops().size() > 1 && r.nexthops().stream().anyMatch(nh -> nh.via().equals(Optional.of(ownerTunnel))))
                        .isFalse());

        prober.answer(ownerTunnel);
        DataplanePlan after = await(planFor, names, p -> table(p, cache) == ownerTable);
        assertThat(after).isEqualTo(before);
    }

    private DataplanePlan await(Function<Set<String>, DataplanePlan> planFor, Function<Ipv4Address, String> names, Predicate<DataplanePlan> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        DataplanePlan plan = health.desired(planFor, names);
        while (!done.test(plan)) {
            assertThat(System.nanoTime()).as("the verdict came within 15 s").isLessThan(deadline);
            Thread.sleep(20);
            plan = health.desired(planFor, names);
        }
        return plan;
    }

    private static int table(DataplanePlan plan, Pod pod) {
        return plan.rules().stream().filter(r -> r.from().equals(Optional.of(Ipv4Prefix.host(pod.ip())))).map(PolicyRule::table)
                .findFirst().orElseThrow();
    }

    private static Ipv4Address tunnelOf(ClusterSetPlan plan, Function<Ipv4Address, String> names, String gateway) {
        List<Ipv4Address> addresses = plan.host(HostId.node("cluster1", "worker-1")).orElseThrow().submariner().routes().stream()
                .flatMap(r -> r.nexthops().stream()).flatMap(nh -> nh.via().stream()).filter(a -> gateway.equals(names.apply(a))).distinct().toList();
        assertThat(addresses).as("the worker's nexthop of " + gateway).hasSize(1);
        return addresses.getFirst();
    }
}
