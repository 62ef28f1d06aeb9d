package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code -p udp -m udp} and {@code -p tcp -m tcp} without options, as upstream's packet filter writes
 * them (its INPUT jump is one): the module matches every port of its protocol, and the {@code -p}
 * keeps the other protocol out.
 */
class ABareProtocolModuleMatchesEveryPortOfItsProtocol {

    private static Rule markIf(Protocol protocol, int mark) {
        return Rule.of(new Target.SetMark(mark, mark), new Match.ProtocolIs(protocol), new Match.ProtocolModule());
    }

    private static List<Integer> marksOnN1(ResolvedFlow flow) {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.append(Table.MANGLE, "FORWARD", markIf(Protocol.TCP, 0x1))
                .append(Table.MANGLE, "FORWARD", markIf(Protocol.UDP, 0x2));
        PathTrace path = cluster.simulator().trace(flow).getFirst();
        return hopAt(path.forward(), N1).steps().stream().filter(s -> s instanceof Step.Mark).map(s -> ((Step.Mark) s).mark()).toList();
    }

    @Test
    void tcpOnAnyPortMatchesTheTcpModuleOnly() {
        assertThat(marksOnN1(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80))).containsExactly(0x1);
        assertThat(marksOnN1(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 4800))).containsExactly(0x1);
    }

    @Test
    void udpOnAnyPortMatchesTheUdpModuleOnly() {
        ResolvedFlow udp = new ResolvedFlow(CLIENT, Optional.of(Ipv4Address.parse("10.0.1.4")), Ipv4Address.parse("10.0.2.5"), 53,
                Protocol.UDP);

        assertThat(marksOnN1(udp)).containsExactly(0x2);
    }

    @Test
    void icmpMatchesNeither() {
        ResolvedFlow ping = new ResolvedFlow(CLIENT, Optional.of(Ipv4Address.parse("10.0.1.4")), Ipv4Address.parse("10.0.2.5"), 0,
                Protocol.ICMP);

        assertThat(marksOnN1(ping)).isEmpty();
    }
}
