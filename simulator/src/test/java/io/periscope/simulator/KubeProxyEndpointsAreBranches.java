package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

/** kube-proxy's chains for a service with three endpoints on n2, in n1's nat table. */
class KubeProxyEndpointsAreBranches {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    KubeProxyEndpointsAreBranches() {
        cluster.fixture.pod(cluster.n2, "default", "server-b", "10.0.2.6");
        cluster.fixture.pod(cluster.n2, "default", "server-c", "10.0.2.7");
        cluster.n1.append(Table.NAT, "PREROUTING", Rule.of(new Target.Jump("KUBE-SERVICES")).withComment("kubernetes service portals"))
                .append(Table.NAT, "KUBE-SERVICES", Rule.of(new Target.Jump("KUBE-SVC-WEB"), new Match.Destination(net("10.96.0.10/32")),
                        new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80)))
                .chain(Table.NAT, "KUBE-SVC-WEB",
                        Rule.of(new Target.Jump("KUBE-SEP-A"), new Match.RandomProbability(1.0 / 3)),
                        Rule.of(new Target.Jump("KUBE-SEP-B"), new Match.RandomProbability(0.5)),
                        Rule.of(new Target.Jump("KUBE-SEP-C")))
                .chain(Table.NAT, "KUBE-SEP-A", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.of(8080)), new Match.ProtocolIs(Protocol.TCP)))
                .chain(Table.NAT, "KUBE-SEP-B", Rule.of(new Target.Dnat(ip("10.0.2.6"), OptionalInt.of(8080)), new Match.ProtocolIs(Protocol.TCP)))
                .chain(Table.NAT, "KUBE-SEP-C", Rule.of(new Target.Dnat(ip("10.0.2.7"), OptionalInt.of(8080)), new Match.ProtocolIs(Protocol.TCP)));
    }

    @Test
    void everyEndpointIsOnePathInRuleOrder() {
        List<PathTrace> paths = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80));

        assertThat(paths).hasSize(3);
        assertThat(paths.stream().map(p -> p.forward().getLast().node().name()).toList())
                .containsExactly("server", "server-b", "server-c");
        assertThat(paths).allSatisfy(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED);
            assertThat(delivered(p.reply()).sameFlow(packet("10.96.0.10", 80, "10.0.1.4", 40000))).isTrue();
        });
        assertThat(paths.get(0).choices()).containsExactly("c1/n1 nat/KUBE-SVC-WEB: statistic 0.33333 matched");
        assertThat(paths.get(2).choices()).containsExactly("c1/n1 nat/KUBE-SVC-WEB: statistic 0.33333 not matched",
                "c1/n1 nat/KUBE-SVC-WEB: statistic 0.50000 not matched");
    }

    @Test
    void aRuleThatCannotMatchAnywayDoesNotBranch() {
        cluster.n1.append(Table.NAT, "KUBE-SERVICES", Rule.of(new Target.Jump("KUBE-SVC-WEB"),
                new Match.RandomProbability(0.5), new Match.Destination(net("10.96.0.99/32"))));
        assertThat(cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80))).hasSize(1);
    }

    @Test
    void hashModePicksOneEndpointPerFlowAndSpreadsFlowsOverAll() {
        Simulator simulator = new Simulator(cluster.fixture.build(), MultipathMode.HASH);
        Map<String, Integer> endpoints = new TreeMap<>();
        for (int port = 30000; port < 33000; port++) {
            List<PathTrace> paths = simulator.trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.96.0.10"), 80,
                    Protocol.TCP, port));
            assertThat(paths).hasSize(1);
            endpoints.merge(paths.getFirst().forward().getLast().node().name(), 1, Integer::sum);
        }
        assertThat(endpoints).containsOnlyKeys("server", "server-b", "server-c");
        assertThat(endpoints.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
    }
}
