package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.CtState;
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
import java.util.Set;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.tcp;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conntrack's TCP tracker as the kernel runs it (the lab's {@code TcpConntrackStatesInTheKernel}
 * measures the same shape): client (10.0.1.4 on n1) reaches server (10.0.2.5 on n2) through router
 * r1, and the server's node sends everything back through router r2, so replies cross to a router
 * that never saw the connection. Each router marks what it forwards by its ctstate (NEW 0x1,
 * ESTABLISHED 0x2, INVALID 0x4) and masquerades what it forwards towards the client.
 */
class TcpConntrackStatesDecideWhatNatSees {

    static final HostId R1 = HostId.node("c1", "r1");
    static final HostId R2 = HostId.node("c1", "r2");
    static final HostId CLIENT = HostId.pod("c1", "default", "client");

    final PlanFixture fixture = new PlanFixture();
    final PlanFixture.HostBuilder n1 = fixture.node("c1", "n1", "172.18.0.1", "10.0.1.1");
    final PlanFixture.HostBuilder n2 = fixture.node("c1", "n2", "172.18.0.2", "10.0.2.1");
    final PlanFixture.HostBuilder r1 = fixture.node("c1", "r1", "172.18.0.11", "10.0.11.1");
    final PlanFixture.HostBuilder r2 = fixture.node("c1", "r2", "172.18.0.12", "10.0.12.1");

    TcpConntrackStatesDecideWhatNatSees() {
        fixture.pod(n1, "default", "client", "10.0.1.4");
        fixture.pod(n2, "default", "server", "10.0.2.5");
        n1.route("10.0.2.0/24 via 172.18.0.11 dev eth0");
        n2.route("10.0.1.0/24 via 172.18.0.12 dev eth0");
        for (PlanFixture.HostBuilder router : List.of(r1, r2)) {
            router.route("10.0.1.0/24 via 172.18.0.1 dev eth0").route("10.0.2.0/24 via 172.18.0.2 dev eth0")
                    .append(Table.MANGLE, "FORWARD", markIf(CtState.NEW, 0x1))
                    .append(Table.MANGLE, "FORWARD", markIf(CtState.ESTABLISHED, 0x2))
                    .append(Table.MANGLE, "FORWARD", markIf(CtState.INVALID, 0x4))
                    .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.Destination(PlanFixture.net("10.0.1.0/24"))));
        }
    }

    private static Rule markIf(CtState state, int mark) {
        return Rule.of(new Target.SetMark(mark, mark), new Match.ConnState(Set.of(state), false));
    }

    private static List<Integer> marks(Hop hop) {
        return hop.steps().stream().filter(s -> s instanceof Step.Mark).map(s -> ((Step.Mark) s).mark()).toList();
    }

    private static List<Step> nat(Hop hop) {
        return hop.steps().stream().filter(s -> s instanceof Step.Snat || s instanceof Step.Dnat).toList();
    }

    private PathTrace only(List<PathTrace> paths) {
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    @Test
    void theSynIsNewOnTheRouterItCrosses() {
        PathTrace path = only(new Simulator(fixture.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)));
        assertThat(marks(hopAt(path.forward(), R1))).containsExactly(0x1);
    }

    @Test
    void aSynAckCrossingToARouterWithoutTheConnectionIsInvalidThereAndNotTranslated() {
        PathTrace path = only(new Simulator(fixture.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)));
        Hop atR2 = hopAt(path.reply(), R2);
        assertThat(marks(atR2)).containsExactly(0x4);
        assertThat(nat(atR2)).isEmpty();
        assertThat(atR2.depart()).hasValueSatisfying(p -> assertThat(p.src()).isEqualTo(ip("10.0.2.5")));
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void aRuleThatDropsInvalidPacketsDropsTheCrossedSynAck() {
        // kube-proxy's KUBE-FORWARD rule, on r2 only.
        r2.append(Table.FILTER, "FORWARD", Rule.of(new Target.Drop(), new Match.ConnState(Set.of(CtState.INVALID), false)));
        PathTrace path = only(new Simulator(fixture.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)));
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reply().getLast().node()).isEqualTo(R2);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("INVALID"));
    }

    @Test
    void aUdpReplyCrossingToARouterWithoutTheConnectionIsNewThereAndTranslated() {
        PathTrace path = only(new Simulator(fixture.build()).trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")),
                ip("10.0.2.5"), 80, Protocol.UDP)));
        Hop atR2 = hopAt(path.reply(), R2);
        assertThat(marks(atR2)).containsExactly(0x1);
        assertThat(nat(atR2)).hasSize(1);
    }

    @Test
    void aMidStreamAckIsPickedUpAndTranslatedWhereTcpLooseIsOn() {
        PathTrace path = only(new Simulator(fixture.build()).traceMidStream(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)));
        assertThat(marks(hopAt(path.forward(), R1))).containsExactly(0x1);
        assertThat(marks(hopAt(path.reply(), R2))).containsExactly(0x1);
        assertThat(nat(hopAt(path.reply(), R2))).hasSize(1);
        // r2 made the connection its own and masqueraded it: the client's socket does not take that.
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
    }

    @Test
    void aMidStreamAckIsInvalidAndUntranslatedWhereTcpLooseIsOff() {
        r1.sysctl("net.netfilter.nf_conntrack_tcp_loose", "0");
        r2.sysctl("net.netfilter.nf_conntrack_tcp_loose", "0");
        PathTrace path = only(new Simulator(fixture.build()).traceMidStream(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)));
        assertThat(marks(hopAt(path.forward(), R1))).containsExactly(0x4);
        assertThat(marks(hopAt(path.reply(), R2))).containsExactly(0x4);
        assertThat(nat(hopAt(path.reply(), R2))).isEmpty();
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
    }
}
