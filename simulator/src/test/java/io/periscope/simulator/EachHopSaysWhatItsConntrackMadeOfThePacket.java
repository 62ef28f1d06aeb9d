package io.periscope.simulator;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hop carries its host's conntrack view of the packet: the state its rules saw, the direction, and
 * the entry itself (original and reply tuple, NAT bits). n1 DNATs a service address to the server and
 * masquerades what leaves on eth0, so its entry's reply tuple differs from the original at both ends.
 */
class EachHopSaysWhatItsConntrackMadeOfThePacket {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    EachHopSaysWhatItsConntrackMadeOfThePacket() {
        cluster.n1.append(Table.NAT, "PREROUTING", Rule.of(new Target.Dnat(ip("10.0.2.5"), OptionalInt.of(8080)),
                        new Match.Destination(net("10.96.0.10/32")), new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80)))
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.OutInterface("eth0")));
    }

    private PathTrace onlyPath() {
        List<PathTrace> paths = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.96.0.10", 80));
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    @Test
    void theFirstPacketCreatesAnEntryWhoseReplyTupleHoldsBothTranslations() {
        Hop atN1 = hopAt(onlyPath().forward(), N1);
        assertThat(atN1.conntrack()).hasSize(1);
        ConntrackLookup lookup = atN1.conntrack().getFirst();
        assertThat(lookup.state()).isEqualTo(ConntrackLookup.State.NEW);
        assertThat(lookup.reply()).isFalse();
        ConntrackLookup.Entry entry = lookup.entry().orElseThrow();
        assertThat(entry.original().sameFlow(packet("10.0.1.4", 40000, "10.96.0.10", 80))).isTrue();
        assertThat(entry.replyTuple().sameFlow(packet("10.0.2.5", 8080, "172.18.0.1", 40000))).isTrue();
        assertThat(entry.snat()).isTrue();
        assertThat(entry.dnat()).isTrue();
        assertThat(entry.confirmed()).isTrue();
    }

    @Test
    void theReplyFindsTheSameEntryInItsReplyDirection() {
        Hop atN1 = hopAt(onlyPath().reply(), N1);
        ConntrackLookup lookup = atN1.conntrack().getFirst();
        assertThat(lookup.state()).isEqualTo(ConntrackLookup.State.ESTABLISHED);
        assertThat(lookup.reply()).isTrue();
        assertThat(lookup.packet().sameFlow(packet("10.0.2.5", 8080, "172.18.0.1", 40000))).isTrue();
        // The entry's original tuple is the client's first packet, not the reply as it arrived.
        assertThat(lookup.entry().orElseThrow().original().sameFlow(packet("10.0.1.4", 40000, "10.96.0.10", 80))).isTrue();
    }

    @Test
    void everyHostOnThePathHasItsOwnView() {
        PathTrace path = onlyPath();
        for (Hop hop : path.forward()) {
            assertThat(hop.conntrack()).as(hop.node().toString()).isNotEmpty();
            assertThat(hop.conntrack().getFirst().state()).as(hop.node().toString()).isEqualTo(ConntrackLookup.State.NEW);
        }
        for (Hop hop : path.reply()) {
            assertThat(hop.conntrack().getFirst().state()).as(hop.node().toString()).isEqualTo(ConntrackLookup.State.ESTABLISHED);
        }
    }
}
