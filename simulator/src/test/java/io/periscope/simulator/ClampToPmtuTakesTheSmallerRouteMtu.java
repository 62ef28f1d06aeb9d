package io.periscope.simulator;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the lab's {@code ClampToPmtuTakesTheSmallerRouteMtuInTheKernel} shows, predicted: upstream's
 * {@code TCPMSS --clamp-mss-to-pmtu} in mangle SUBMARINER-POSTROUTING on n1 sets a SYN's MSS to the
 * smaller of the route's MTU and the MTU of the route back to the SYN's source, less 40, and only
 * ever lowers it. With n1's link towards n2 at 1450 bytes, the client's SYN (1460) leaves n1 with
 * 1410, and the server's SYN-ACK (1460) too: its way back to the server is the 1450-byte link.
 */
class ClampToPmtuTakesTheSmallerRouteMtu {

    private static TwoNodeCluster clampOnN1(int linkMtu) {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.ipset("SUBMARINER-LOCALCIDRS", "10.0.1.0/24").ipset("SUBMARINER-REMOTECIDRS", "10.0.2.0/24")
                .append(Table.MANGLE, "POSTROUTING", Rule.of(Target.jump("SUBMARINER-POSTROUTING")));
        for (boolean fromLocal : new boolean[] {true, false}) {
            cluster.n1.append(Table.MANGLE, "SUBMARINER-POSTROUTING", Rule.of(new Target.ClampMssToPmtu(), new Match.ProtocolIs(Protocol.TCP),
                    new Match.SetMatch(fromLocal ? "SUBMARINER-LOCALCIDRS" : "SUBMARINER-REMOTECIDRS", true, false),
                    new Match.SetMatch(fromLocal ? "SUBMARINER-REMOTECIDRS" : "SUBMARINER-LOCALCIDRS", false, false), new Match.TcpSyn()));
        }
        // Only n1's end, as in the kernel rig: the server's own socket still offers 1460.
        cluster.n1.mtu("eth0", linkMtu);
        return cluster;
    }

    private static PathTrace trace(TwoNodeCluster cluster) {
        return cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 5201)).getFirst();
    }

    @Test
    void theSynLeavesN1WithTheLinksMtuLess40() {
        PathTrace path = trace(clampOnN1(1450));

        List<Step.Mss> forward = steps(path.forward(), Step.Mss.class);
        assertThat(forward).singleElement().satisfies(s -> {
            assertThat(s.from()).isEqualTo(1460);
            assertThat(s.mss()).isEqualTo(1410);
        });
        assertThat(hopAt(path.forward(), N1).steps()).contains(forward.getFirst());
    }

    @Test
    void theSynAckIsClampedByTheRouteBackToItsSource() {
        List<Step.Mss> reply = steps(trace(clampOnN1(1450)).reply(), Step.Mss.class);

        assertThat(reply).as("out by the client's 1500-byte veth, but the server is behind 1450 bytes").singleElement()
                .satisfies(s -> assertThat(s.mss()).isEqualTo(1410));
    }

    @Test
    void onLinksOf1500NothingIsLowered() {
        PathTrace path = trace(clampOnN1(1500));
        assertThat(steps(path.forward(), Step.Mss.class)).isEmpty();
        assertThat(steps(path.reply(), Step.Mss.class)).isEmpty();
    }
}
