package io.periscope.simulator;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the lab's {@code SetMssLowersButNeverRaisesInTheKernel} shows the kernel doing, predicted: a
 * socket's SYN offers its route's MTU less 40 (1460 from a 1500-byte {@code eth0}, 1360 from a
 * 1400-byte one), and upstream's forced {@code TCPMSS --set-mss 1380} in mangle SUBMARINER-POSTROUTING
 * on the node between client and server lowers it to 1380 but leaves 1360 alone. The server's SYN-ACK
 * (1460) meets the other rule of the pair on its way back and is lowered too.
 */
class SetMssLowersButNeverRaises {

    private static final String FROM_LOCAL = "-p tcp -m set --match-set SUBMARINER-LOCALCIDRS src -m set --match-set SUBMARINER-REMOTECIDRS"
            + " dst -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1380";

    /** The client's pod network is the local set, the server's the remote one, as on a planned node. */
    private static TwoNodeCluster forcedOnN1() {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.ipset("SUBMARINER-LOCALCIDRS", "10.0.1.0/24").ipset("SUBMARINER-REMOTECIDRS", "10.0.2.0/24")
                .append(Table.MANGLE, "POSTROUTING", Rule.of(Target.jump("SUBMARINER-POSTROUTING")));
        for (boolean fromLocal : new boolean[] {true, false}) {
            cluster.n1.append(Table.MANGLE, "SUBMARINER-POSTROUTING", Rule.of(new Target.SetMss(1380), new Match.ProtocolIs(Protocol.TCP),
                    new Match.SetMatch(fromLocal ? "SUBMARINER-LOCALCIDRS" : "SUBMARINER-REMOTECIDRS", true, false),
                    new Match.SetMatch(fromLocal ? "SUBMARINER-REMOTECIDRS" : "SUBMARINER-LOCALCIDRS", false, false), new Match.TcpSyn()));
        }
        return cluster;
    }

    private static PathTrace trace(TwoNodeCluster cluster) {
        return cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 5201)).getFirst();
    }

    @Test
    void aSynOffering1460IsLoweredTo1380WhereItLeavesN1() {
        PathTrace path = trace(forcedOnN1());

        List<Step.Mss> forward = steps(path.forward(), Step.Mss.class);
        assertThat(forward).hasSize(1);
        assertThat(forward.getFirst().from()).isEqualTo(1460);
        assertThat(forward.getFirst().mss()).isEqualTo(1380);
        assertThat(forward.getFirst().rule().chain()).isEqualTo("SUBMARINER-POSTROUTING");
        assertThat(forward.getFirst().rule().rule()).isEqualTo(FROM_LOCAL);
        assertThat(hopAt(path.forward(), N1).steps()).contains(forward.getFirst());
    }

    @Test
    void aSynOffering1360PassesUnchanged() {
        TwoNodeCluster cluster = forcedOnN1();
        cluster.client.mtu("eth0", 1400);

        assertThat(steps(trace(cluster).forward(), Step.Mss.class)).as("TCPMSS never raises an MSS").isEmpty();
    }

    @Test
    void theServersSynAckIsLoweredByTheOtherRuleOfThePair() {
        TwoNodeCluster cluster = forcedOnN1();
        cluster.client.mtu("eth0", 1400);

        List<Step.Mss> reply = steps(trace(cluster).reply(), Step.Mss.class);
        assertThat(reply).hasSize(1);
        assertThat(reply.getFirst().from()).isEqualTo(1460);
        assertThat(reply.getFirst().mss()).isEqualTo(1380);
        assertThat(reply.getFirst().rule().rule()).startsWith("-p tcp -m set --match-set SUBMARINER-REMOTECIDRS src");
    }

    @Test
    void withoutTheRuleNoStepChangesTheMss() {
        PathTrace path = trace(new TwoNodeCluster());
        assertThat(steps(path.forward(), Step.Mss.class)).isEmpty();
        assertThat(steps(path.reply(), Step.Mss.class)).isEmpty();
    }

    @Test
    void traceTextAndJsonShowTheMssBeforeAndAfter() {
        Step.Mss step = steps(trace(forcedOnN1()).forward(), Step.Mss.class).getFirst();

        assertThat(TraceText.step(step)).isEqualTo("mss 1460 -> 1380 mangle/SUBMARINER-POSTROUTING: " + FROM_LOCAL);
        var json = TraceJson.step(step);
        assertThat(json.get("kind").asText()).isEqualTo("mss");
        assertThat(json.get("table").asText()).isEqualTo("mangle");
        assertThat(json.get("from").asInt()).isEqualTo(1460);
        assertThat(json.get("mss").asInt()).isEqualTo(1380);
    }
}
