package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static io.periscope.simulator.TwoNodeCluster.N2;
import static org.assertj.core.api.Assertions.assertThat;

class MarksBelongToTheirHostAndConnection {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    private PathTrace trace() {
        return cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)).getFirst();
    }

    private static Rule dropMarked(int mark) {
        return Rule.of(new Target.Drop(), new Match.MarkIs(mark, mark, false));
    }

    @Test
    void aMarkSetInPreroutingIsSeenLaterOnTheSameHost() {
        cluster.n1.append(Table.MANGLE, "PREROUTING", Rule.of(new Target.SetMark(0x1, 0x1)))
                .append(Table.FILTER, "FORWARD", dropMarked(0x1));
        PathTrace path = trace();
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.forward().getLast().node()).isEqualTo(N1);
    }

    @Test
    void theMarkDoesNotTravelToTheNextHost() {
        cluster.n1.append(Table.MANGLE, "PREROUTING", Rule.of(new Target.SetMark(0x1, 0x1)));
        cluster.n2.append(Table.FILTER, "FORWARD", dropMarked(0x1));
        assertThat(trace().disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void aMarkSteersPolicyRouting() {
        cluster.n1.append(Table.MANGLE, "PREROUTING", Rule.of(new Target.SetMark(0x40, 0xff), new Match.Destination(net("10.0.2.0/24"))))
                .rule(new PolicyRule(50, Optional.empty(), Optional.empty(), OptionalInt.of(0x40), Optional.empty(), 77))
                .route("table 77 blackhole 10.0.2.0/24");
        PathTrace path = trace();
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(steps(path.forward(), Step.Route.class).getLast().table()).isEqualTo("77");
    }

    @Test
    void aConnmarkSetOnTheRequestIsSeenByTheReply() {
        cluster.n1.append(Table.MANGLE, "FORWARD", Rule.of(new Target.SetConnMark(0x7, 0xf), new Match.ConnState(Set.of(CtState.NEW), false)))
                .append(Table.MANGLE, "FORWARD", Rule.of(new Target.SetMark(0x100, 0x100), new Match.ConnMarkIs(0x7, 0xf),
                        new Match.ConnState(Set.of(CtState.ESTABLISHED), false)));
        PathTrace path = trace();
        List<Step.Mark> request = steps(List.of(hopAt(path.forward(), N1)), Step.Mark.class);
        List<Step.Mark> reply = steps(List.of(hopAt(path.reply(), N1)), Step.Mark.class);
        assertThat(request).singleElement().satisfies(m -> assertThat(m.connmark()).isTrue());
        assertThat(reply).singleElement().satisfies(m -> {
            assertThat(m.connmark()).isFalse();
            assertThat(m.mark()).isEqualTo(0x100);
        });
    }

    @Test
    void anUntrackedPacketGetsNoNatAndMatchesUntracked() {
        cluster.n1.append(Table.RAW, "PREROUTING", Rule.of(new Target.NoTrack(), new Match.Destination(net("10.96.0.10/32"))))
                .append(Table.NAT, "PREROUTING", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.empty()),
                        new Match.Destination(net("10.96.0.10/32")), new Match.ProtocolIs(Protocol.TCP)))
                .append(Table.MANGLE, "PREROUTING", Rule.of(new Target.SetMark(0x2, 0x2),
                        new Match.ConnState(Set.of(CtState.UNTRACKED), false)))
                .route("10.96.0.0/12 via 172.18.0.2 dev eth0");
        PathTrace path = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80)).getFirst();
        assertThat(TraceQueries.kinds(hopAt(path.forward(), N1))).containsExactly("notrack", "mark", "route");
        assertThat(hopAt(path.forward(), N2).arrive().dst()).isEqualTo(ip("10.96.0.10"));
    }
}
