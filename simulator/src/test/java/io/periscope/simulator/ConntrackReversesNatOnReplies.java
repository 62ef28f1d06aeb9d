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
import java.util.OptionalInt;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.kinds;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * n1 DNATs a service address to the server and masquerades what leaves on eth0; it also carries rules
 * that would translate the reply if the nat table were consulted for it.
 */
class ConntrackReversesNatOnReplies {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    ConntrackReversesNatOnReplies() {
        cluster.n1.append(Table.NAT, "PREROUTING", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.of(8080)),
                        new Match.Destination(net("10.96.0.10/32")), new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80)))
                // Matches the reply as it arrives: only a NEW connection may consult it.
                .append(Table.NAT, "PREROUTING", Rule.of(new Target.Dnat(ip("10.0.2.99"), OptionalInt.empty()),
                        new Match.Source(net("10.0.2.5/32"))))
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.OutInterface("eth0")))
                // Matches the reply as it leaves towards the client: same.
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.OutInterface("v-client")));
    }

    private PathTrace onlyPath() {
        List<PathTrace> paths = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80));
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    @Test
    void theFirstPacketIsTranslatedByTheNatRules() {
        PathTrace path = onlyPath();
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(kinds(hopAt(path.forward(), N1))).containsExactly("dnat", "route", "snat");
        assertThat(delivered(path.forward()).sameFlow(packet("172.18.0.1", 40000, "10.0.2.5", 8080))).isTrue();
    }

    @Test
    void theReplyIsNotTranslatedByNatRulesOnlyByConntrack() {
        PathTrace path = onlyPath();
        assertThat(steps(path.reply(), Step.Dnat.class)).isEmpty();
        assertThat(steps(path.reply(), Step.Snat.class)).isEmpty();
        assertThat(delivered(path.reply()).sameFlow(packet("10.96.0.10", 80, "10.0.1.4", 40000))).isTrue();
    }

    @Test
    void theReplyGetsItsSnatUndoneInPreroutingAndItsDnatUndoneInPostrouting() {
        Hop atN1 = hopAt(onlyPath().reply(), N1);
        assertThat(kinds(atN1)).containsExactly("unsnat", "route", "undnat");
        assertThat(atN1.arrive().sameFlow(packet("10.0.2.5", 8080, "172.18.0.1", 40000))).isTrue();
        assertThat(atN1.steps().get(0).packet().sameFlow(packet("10.0.2.5", 8080, "10.0.1.4", 40000))).isTrue();
        assertThat(atN1.steps().get(2).packet().sameFlow(packet("10.96.0.10", 80, "10.0.1.4", 40000))).isTrue();
        assertThat(atN1.depart()).hasValueSatisfying(p -> assertThat(p.sameFlow(packet("10.96.0.10", 80, "10.0.1.4", 40000))).isTrue());
    }
}
