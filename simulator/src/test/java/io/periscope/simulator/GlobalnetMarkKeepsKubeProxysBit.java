package io.periscope.simulator;

import io.periscope.model.net.Ipv4Range;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the lab's {@code GlobalnetMarkKeepsKubeProxysBitInTheKernel} shows, predicted. On n1, a packet
 * kube-proxy marked for masquerade (0x4000, as KUBE-MARK-MASQ does in nat PREROUTING) heads for
 * 10.0.2.0/24, standing for a remote global CIDR. nat POSTROUTING runs Globalnet's chains before
 * KUBE-POSTROUTING, as upstream orders them. Globalnet's {@code --set-xmark 0xc0000/0xc0000} (the
 * seeds' README, upstream's packetfilter since 0.18) adds its bits and keeps kube-proxy's: the packet
 * carries 0xc4000, {@code -m mark --mark 0xc0000/0xc0000} matches it and the SNAT to the global IP ends
 * nat POSTROUTING; from a source no Globalnet rule covers, KUBE-POSTROUTING still sees 0x4000 and
 * masquerades it.
 */
class GlobalnetMarkKeepsKubeProxysBit {

    private static final int KUBE_MASQ = 0x4000;
    private static final int GLOBALNET = 0xc0000;

    /** @param snatSource the subnet the Globalnet SNAT covers */
    private static TwoNodeCluster gateway(int markMask, int matchMask, String snatSource) {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n2.route("242.0.0.0/28 via 172.18.0.1 dev eth0");
        cluster.n1.append(Table.NAT, "PREROUTING", Rule.of(new Target.SetMark(KUBE_MASQ, KUBE_MASQ)))
                .append(Table.NAT, "POSTROUTING", Rule.of(Target.jump("SUBMARINER-GN-EGRESS")))
                .append(Table.NAT, "POSTROUTING", Rule.of(Target.jump("KUBE-POSTROUTING")))
                .append(Table.NAT, "SUBMARINER-GN-EGRESS", Rule.of(Target.jump("SUBMARINER-GN-MARK")))
                .append(Table.NAT, "SUBMARINER-GN-EGRESS", Rule.of(Target.jump("SM-GN-EGRESS-CLUSTER")))
                .append(Table.NAT, "SUBMARINER-GN-MARK", Rule.of(new Target.SetMark(GLOBALNET, markMask), new Match.Destination(net("10.0.2.0/24"))))
                .append(Table.NAT, "SM-GN-EGRESS-CLUSTER", Rule.of(new Target.Snat(Ipv4Range.parse("242.0.0.1-242.0.0.8")),
                        new Match.Source(net(snatSource)), new Match.MarkIs(GLOBALNET, matchMask, false)))
                .append(Table.NAT, "KUBE-POSTROUTING", new Rule(List.of(new Match.MarkIs(KUBE_MASQ, KUBE_MASQ, false)), new Target.Masquerade(),
                        Optional.of("kubernetes service traffic requiring SNAT")));
        return cluster;
    }

    private static PathTrace trace(TwoNodeCluster cluster) {
        return cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80)).getFirst();
    }

    private static List<Integer> marks(PathTrace path) {
        return steps(List.of(hopAt(path.forward(), N1)), Step.Mark.class).stream().map(Step.Mark::mark).toList();
    }

    private static String snatBy(PathTrace path) {
        return steps(List.of(hopAt(path.forward(), N1)), Step.Snat.class).getFirst().rule().orElseThrow().chain();
    }

    @Test
    void globalnetAddsItsBitsAndSnatsToTheGlobalIp() {
        PathTrace path = trace(gateway(GLOBALNET, GLOBALNET, "10.0.1.0/24"));

        assertThat(marks(path)).containsExactly(KUBE_MASQ, GLOBALNET | KUBE_MASQ);
        assertThat(snatBy(path)).isEqualTo("SM-GN-EGRESS-CLUSTER");
        assertThat(delivered(path.forward()).src()).isEqualTo(ip("242.0.0.1"));
        assertThat(path.disposition()).isEqualTo(io.periscope.model.topology.Disposition.DELIVERED);
    }

    @Test
    void untranslatedByGlobalnetThePacketIsMasqueradedByKubeProxy() {
        // The SNAT covers another subnet than the client's: kube-proxy's bit is still set.
        PathTrace path = trace(gateway(GLOBALNET, GLOBALNET, "10.0.9.0/24"));

        assertThat(marks(path)).containsExactly(KUBE_MASQ, GLOBALNET | KUBE_MASQ);
        assertThat(snatBy(path)).isEqualTo("KUBE-POSTROUTING");
        assertThat(delivered(path.forward()).src()).isEqualTo(ip("172.18.0.1"));
    }
}
