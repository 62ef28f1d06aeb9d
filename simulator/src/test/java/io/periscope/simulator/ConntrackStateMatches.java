package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.model.net.Ipv4Range;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

class ConntrackStateMatches {

    private static Rule markIf(CtState state, int mark) {
        return Rule.of(new Target.SetMark(mark, mark), new Match.ConnState(Set.of(state), false));
    }

    private static Rule serviceDnat() {
        return Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.of(8080)), new Match.Destination(net("10.96.0.10/32")),
                new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80));
    }

    private static List<Integer> marks(List<Step> steps) {
        return steps.stream().filter(s -> s instanceof Step.Mark).map(s -> ((Step.Mark) s).mark()).toList();
    }

    @Test
    void ctstateDnatHoldsRightAfterTheDnatAndForTheReply() {
        TwoNodeCluster cluster = new TwoNodeCluster();
        // Seed 004 step 3b: SNAT only what was DNATed, to the node's CNI address.
        cluster.n1.append(Table.NAT, "PREROUTING", serviceDnat())
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Snat(Ipv4Range.single(ip("10.0.1.1"))),
                        new Match.ConnState(Set.of(CtState.DNAT), false)))
                .append(Table.MANGLE, "POSTROUTING", markIf(CtState.DNAT, 0x40));
        PathTrace path = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80)).getFirst();

        assertThat(delivered(path.forward()).sameFlow(packet("10.0.1.1", 40000, "10.0.2.5", 8080))).isTrue();
        assertThat(marks(hopAt(path.forward(), N1).steps())).containsExactly(0x40);
        assertThat(marks(hopAt(path.reply(), N1).steps())).containsExactly(0x40);
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void ctstateDnatDoesNotHoldForAConnectionThatWasNotDnated() {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.append(Table.MANGLE, "POSTROUTING", markIf(CtState.DNAT, 0x40));
        PathTrace path = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)).getFirst();
        assertThat(marks(hopAt(path.forward(), N1).steps())).isEmpty();
        assertThat(marks(hopAt(path.reply(), N1).steps())).isEmpty();
    }

    @Test
    void forwardIsNewAndTheReplyIsEstablishedWhereTheConnectionPassed() {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.append(Table.MANGLE, "FORWARD", markIf(CtState.NEW, 0x1))
                .append(Table.MANGLE, "FORWARD", markIf(CtState.ESTABLISHED, 0x2));
        PathTrace path = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)).getFirst();
        assertThat(marks(hopAt(path.forward(), N1).steps())).containsExactly(0x1);
        assertThat(marks(hopAt(path.reply(), N1).steps())).containsExactly(0x2);
    }

    /**
     * Seed 004 step 6: the reply comes back through another router than the request went out by. That
     * router has never seen the connection: a SYN-ACK without its SYN opens no TCP connection, so it is
     * INVALID there (neither NEW nor ESTABLISHED), conntrack makes no entry, and no NAT rule, such as
     * the one that SNATs DNATed connections, sees it. Nothing drops it, so it is forwarded.
     */
    @Test
    void aTcpReplyArrivingAtAHostWithoutConntrackStateIsInvalidThere() {
        PlanFixture f = new PlanFixture();
        PlanFixture.HostBuilder n1 = f.node("c1", "n1", "172.18.0.1", "10.0.1.1");
        PlanFixture.HostBuilder n2 = f.node("c1", "n2", "172.18.0.2", "10.0.2.1");
        PlanFixture.HostBuilder r1 = f.node("c1", "r1", "172.18.0.11", "10.0.11.1");
        PlanFixture.HostBuilder r2 = f.node("c1", "r2", "172.18.0.12", "10.0.12.1");
        f.pod(n1, "default", "client", "10.0.1.4");
        f.pod(n2, "default", "server", "10.0.2.5");
        n1.route("10.0.2.0/24 via 172.18.0.11 dev eth0").append(Table.NAT, "PREROUTING", serviceDnat());
        r1.route("10.0.2.0/24 via 172.18.0.2 dev eth0");
        n2.route("10.0.1.0/24 via 172.18.0.12 dev eth0");
        r2.route("10.0.1.0/24 via 172.18.0.1 dev eth0")
                .append(Table.MANGLE, "FORWARD", markIf(CtState.NEW, 0x1))
                .append(Table.MANGLE, "FORWARD", markIf(CtState.ESTABLISHED, 0x2))
                .append(Table.MANGLE, "FORWARD", markIf(CtState.INVALID, 0x4))
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Snat(Ipv4Range.single(ip("10.0.12.1"))),
                        new Match.ConnState(Set.of(CtState.DNAT), false)))
                // Would rewrite the reply if NAT saw it: it must not.
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.OutInterface("eth0")));

        PathTrace path = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80)).getFirst();

        assertThat(TraceQueries.nodes(path.reply())).containsExactly(TwoNodeCluster.SERVER, HostId.node("c1", "n2"),
                HostId.node("c1", "r2"), N1, CLIENT);
        assertThat(marks(hopAt(path.reply(), HostId.node("c1", "r2")).steps())).containsExactly(0x4);
        assertThat(TraceQueries.steps(List.of(hopAt(path.reply(), HostId.node("c1", "r2"))), Step.Snat.class)).isEmpty();
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(delivered(path.reply()).sameFlow(packet("10.96.0.10", 80, "10.0.1.4", 40000))).isTrue();
    }
}
