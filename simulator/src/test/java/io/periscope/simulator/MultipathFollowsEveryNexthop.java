package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.plan.HostId;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client on n1, server on n2, three routers between them. n1 spreads requests over two routers, n2
 * spreads replies over three.
 */
class MultipathFollowsEveryNexthop {

    private static final HostId CLIENT = HostId.pod("c1", "default", "client");

    private final PlanFixture f = new PlanFixture();
    private final PlanFixture.HostBuilder n1 = f.node("c1", "n1", "172.18.0.1", "10.0.1.1");
    private final PlanFixture.HostBuilder n2 = f.node("c1", "n2", "172.18.0.2", "10.0.2.1");

    MultipathFollowsEveryNexthop() {
        f.pod(n1, "default", "client", "10.0.1.4");
        f.pod(n2, "default", "server", "10.0.2.5");
        for (int r = 1; r <= 3; r++) {
            f.node("c1", "r" + r, "172.18.0.1" + r, "10.0.1" + r + ".1")
                    .route("10.0.2.0/24 via 172.18.0.2 dev eth0").route("10.0.1.0/24 via 172.18.0.1 dev eth0");
        }
        n2.route("10.0.1.0/24 nexthop via 172.18.0.11 dev eth0 nexthop via 172.18.0.12 dev eth0 nexthop via 172.18.0.13 dev eth0");
    }

    @Test
    void everyCombinationOfNexthopsIsItsOwnPath() {
        n1.route("10.0.2.0/24 nexthop via 172.18.0.11 dev eth0 nexthop via 172.18.0.12 dev eth0");
        List<PathTrace> paths = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80));

        assertThat(paths).hasSize(2 * 3);
        assertThat(paths).allSatisfy(p -> assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED));
        assertThat(new HashSet<>(paths.stream().map(PathTrace::choices).toList())).hasSize(6);
        assertThat(paths).allSatisfy(p -> assertThat(p.choices()).hasSize(2));
        // Each forward choice is followed by every reply choice.
        assertThat(paths.stream().map(p -> p.forward().get(2).node()).toList()).containsExactly(
                HostId.node("c1", "r1"), HostId.node("c1", "r1"), HostId.node("c1", "r1"),
                HostId.node("c1", "r2"), HostId.node("c1", "r2"), HostId.node("c1", "r2"));
        assertThat(paths.stream().map(p -> p.reply().get(2).node().name()).toList())
                .containsExactly("r1", "r2", "r3", "r1", "r2", "r3");
    }

    @Test
    void theRouteStepShowsTheRouteAsIpRoutePrintsItAndTheNexthopTaken() {
        n1.route("10.0.2.0/24 nexthop via 172.18.0.11 dev eth0 nexthop via 172.18.0.12 dev eth0");
        PathTrace second = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)).get(3);
        Step.Route route = steps(List.of(hopAt(second.forward(), HostId.node("c1", "n1"))), Step.Route.class).getFirst();
        assertThat(route.table()).isEqualTo("main");
        assertThat(route.route()).isEqualTo(
                "10.0.2.0/24 proto static nexthop via 172.18.0.11 dev eth0 weight 1 nexthop via 172.18.0.12 dev eth0 weight 1");
        assertThat(route.via()).contains(ip("172.18.0.12"));
        assertThat(route.nexthop()).isEqualTo("via 172.18.0.12");
    }

    @Test
    void aNexthopGroupOffersEachOfItsMembers() {
        n1.nexthopObject(1, "172.18.0.11", "eth0").nexthopObject(2, "172.18.0.12", "eth0")
                .nexthopGroup(10, new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 2))
                .route("10.0.2.0/24 nhid 10");
        List<PathTrace> paths = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80));

        assertThat(paths).hasSize(2 * 3);
        Step.Route route = steps(List.of(hopAt(paths.getFirst().forward(), HostId.node("c1", "n1"))), Step.Route.class).getFirst();
        assertThat(route.route()).isEqualTo(
                "10.0.2.0/24 nhid 10 proto static nexthop via 172.18.0.11 dev eth0 weight 1 nexthop via 172.18.0.12 dev eth0 weight 2");
    }

    @Test
    void hashModeTakesOneNexthopPerFlowAndRespectsWeights() {
        // L4 hashing, as the planner programs it: each connection's ports take part.
        n1.sysctl("net.ipv4.fib_multipath_hash_policy", "1");
        n1.nexthopObject(1, "172.18.0.11", "eth0").nexthopObject(2, "172.18.0.12", "eth0")
                .nexthopGroup(10, new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 3))
                .route("10.0.2.0/24 nhid 10");
        Simulator simulator = new Simulator(f.build(), MultipathMode.HASH);
        Map<String, Integer> routers = new TreeMap<>();
        for (int port = 20000; port < 24000; port++) {
            List<PathTrace> paths = simulator.trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.0.2.5"), 80,
                    io.periscope.model.topology.Protocol.TCP, port));
            assertThat(paths).hasSize(1);
            assertThat(paths.getFirst().disposition()).isEqualTo(Disposition.DELIVERED);
            routers.merge(paths.getFirst().forward().get(2).node().name(), 1, Integer::sum);
        }
        assertThat(routers.keySet()).containsExactly("r1", "r2");
        // weights 1:3 of 4000 flows: about 1000 and 3000
        assertThat(routers.get("r1")).isBetween(850, 1150);
        assertThat(routers.get("r2")).isBetween(2850, 3150);
    }

    /**
     * A node whose plan sets no {@code fib_multipath_hash_policy} hashes as the kernel does by
     * default, the addresses alone (policy 0): every connection between two pods takes one nexthop,
     * whatever its ports.
     */
    @Test
    void withoutAPolicyTheKernelsDefaultPutsEveryConnectionOfAPodPairOnOneNexthop() {
        n1.nexthopObject(1, "172.18.0.11", "eth0").nexthopObject(2, "172.18.0.12", "eth0")
                .nexthopGroup(10, new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1))
                .route("10.0.2.0/24 nhid 10");
        Simulator simulator = new Simulator(f.build(), MultipathMode.HASH);
        Map<String, Integer> routers = new TreeMap<>();
        for (int port = 20000; port < 20200; port++) {
            List<PathTrace> paths = simulator.trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.0.2.5"), 80,
                    io.periscope.model.topology.Protocol.TCP, port));
            routers.merge(paths.getFirst().forward().get(2).node().name(), 1, Integer::sum);
        }
        assertThat(routers).hasSize(1).containsValue(200);
    }
}
