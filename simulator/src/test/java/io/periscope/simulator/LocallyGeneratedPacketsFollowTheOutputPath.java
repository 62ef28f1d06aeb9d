package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.kinds;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

class LocallyGeneratedPacketsFollowTheOutputPath {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    private List<PathTrace> fromN1(String destination, int port) {
        return cluster.simulator().trace(new ResolvedFlow(N1, Optional.empty(), ip(destination), port, Protocol.TCP));
    }

    @Test
    void theSourceIsTheOutputDeviceAddressUnlessTheRouteNamesOne() {
        assertThat(fromN1("10.0.2.5", 80).getFirst().forward().getFirst().arrive().src()).isEqualTo(ip("172.18.0.1"));
        cluster.n1.route("10.0.2.5/32 via 172.18.0.2 dev eth0 src 10.0.1.1");
        PathTrace path = fromN1("10.0.2.5", 80).getFirst();
        assertThat(path.forward().getFirst().arrive().src()).isEqualTo(ip("10.0.1.1"));
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(delivered(path.reply()).sameFlow(packet("10.0.2.5", 80, "10.0.1.1", 40000))).isTrue();
    }

    @Test
    void outputDnatReroutesThePacketAndTheReplyIsUndnatedOnInput() {
        cluster.n1.route("10.96.0.0/12 via 172.18.0.2 dev eth0")
                .append(Table.NAT, "OUTPUT", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.of(8080)),
                        new Match.Destination(net("10.96.0.10/32")), new Match.ProtocolIs(Protocol.TCP)));
        PathTrace path = fromN1("10.96.0.10", 80).getFirst();

        Hop source = path.forward().getFirst();
        assertThat(source.in()).isEmpty();
        assertThat(kinds(source)).containsExactly("route", "dnat", "route");
        assertThat(steps(List.of(source), Step.Route.class).get(1).route()).isEqualTo("10.0.2.0/24 via 172.18.0.2 dev eth0 proto static");
        Hop last = path.reply().getLast();
        assertThat(last.node()).isEqualTo(N1);
        assertThat(kinds(last)).containsExactly("route", "undnat", "deliver");
        assertThat(delivered(path.reply()).sameFlow(packet("10.96.0.10", 80, "172.18.0.1", 40000))).isTrue();
        assertThat(((Step.Deliver) last.steps().getLast()).to()).isEqualTo("host process");
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void aNodeWithoutARouteForTheOriginalDestinationCannotConnect() {
        // connect() routes before OUTPUT runs, so a DNAT there cannot rescue a destination without a route.
        cluster.n1.append(Table.NAT, "OUTPUT", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.empty()),
                new Match.Destination(net("10.96.0.10/32"))));
        assertThat(fromN1("10.96.0.10", 80).getFirst().disposition()).isEqualTo(Disposition.NO_ROUTE);
    }

    @Test
    void aNodeTalkingToItsOwnAddressDeliversLocally() {
        PathTrace path = fromN1("10.0.1.1", 22).getFirst();
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(path.forward()).singleElement().satisfies(h -> assertThat(kinds(h)).containsExactly("route", "deliver"));
        assertThat(path.forward().getFirst().arrive().src()).isEqualTo(ip("10.0.1.1"));
    }
}
