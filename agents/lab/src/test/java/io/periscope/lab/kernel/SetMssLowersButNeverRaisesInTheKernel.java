package io.periscope.lab.kernel;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's forced MSS as the planner writes it (mangle SUBMARINER-POSTROUTING, the
 * SUBMARINER-LOCALCIDRS and SUBMARINER-REMOTECIDRS sets, {@code TCPMSS --set-mss 1380}) on router r
 * between client c (10.77.1.2) and server s (10.77.2.2). s counts the SYNs it gets by the MSS they
 * offer, c the SYN-ACKs. A socket offers its route's MTU less 40: 1460 on a 1500-byte link, 1360 on a
 * 1400-byte one. The kernel lowers 1460 to 1380 both ways and leaves 1360 as it is: despite its name,
 * {@code --set-mss} never raises an MSS. The simulator's {@code SetMssLowersButNeverRaises} predicts
 * the same from the same rules.
 */
class SetMssLowersButNeverRaisesInTheKernel {

    private NamespaceRig rig;

    /** The planner's pair of rules: local to remote, then remote to local. */
    private static List<Rule> plannedRules() {
        return List.of(rule("SUBMARINER-LOCALCIDRS", "SUBMARINER-REMOTECIDRS"), rule("SUBMARINER-REMOTECIDRS", "SUBMARINER-LOCALCIDRS"));
    }

    private static Rule rule(String source, String destination) {
        return Rule.of(new Target.SetMss(1380), new Match.ProtocolIs(Protocol.TCP), new Match.SetMatch(source, true, false),
                new Match.SetMatch(destination, false, false), new Match.TcpSyn());
    }

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ipset", "ipset");
        rig = NamespaceRig.clientRouterServer("sm");
        for (String mss : new String[] {"1360", "1380", "1460"}) {
            rig.in("s", "iptables", "-A", "INPUT", "-p", "tcp", "--syn", "-m", "tcpmss", "--mss", mss);
            rig.in("c", "iptables", "-A", "INPUT", "-p", "tcp", "--tcp-flags", "SYN,ACK", "SYN,ACK", "-m", "tcpmss", "--mss", mss);
        }
        rig.in("r", "ipset", "create", "SUBMARINER-LOCALCIDRS", "hash:net");
        rig.in("r", "ipset", "create", "SUBMARINER-REMOTECIDRS", "hash:net");
        rig.in("r", "ipset", "add", "SUBMARINER-LOCALCIDRS", "10.77.1.0/24");
        rig.in("r", "ipset", "add", "SUBMARINER-REMOTECIDRS", "10.77.2.0/24");
        rig.in("r", "iptables", "-t", "mangle", "-N", "SUBMARINER-POSTROUTING");
        rig.in("r", "iptables", "-t", "mangle", "-I", "POSTROUTING", "1", "-j", "SUBMARINER-POSTROUTING");
        for (Rule rule : plannedRules()) {
            // The planner's own text, as iptables-restore takes it.
            assertThat(rig.script("r", "iptables -t mangle -A SUBMARINER-POSTROUTING " + IptablesSyntax.rule(rule))).isZero();
        }
        rig.background("s", "iperf3", "-s", "-B", "10.77.2.2");
        int tries = 0;
        while (rig.script("s", "ss -ltn | grep -q 10.77.2.2:5201") != 0 && ++tries < 50) {
            rig.script("s", "sleep 0.1");
        }
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private long synsAtServerWithMss(int mss) {
        return rig.packets("s", "filter", "--tcp-flags FIN,SYN,RST,ACK SYN -m tcpmss --mss " + mss);
    }

    private long synAcksAtClientWithMss(int mss) {
        return rig.packets("c", "filter", "--tcp-flags SYN,ACK SYN,ACK -m tcpmss --mss " + mss);
    }

    private void connect() {
        assertThat(rig.script("c", "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
    }

    @Test
    void iptablesSaveShowsThePlannersRules() {
        String saved = rig.in("r", "iptables-save", "-t", "mangle");
        for (Rule rule : plannedRules()) {
            assertThat(saved).contains(IptablesSyntax.appendLine("SUBMARINER-POSTROUTING", rule));
        }
    }

    @Test
    void aSynOffering1460ReachesTheServerWith1380AndSoDoesTheSynAck() {
        connect();
        assertThat(synsAtServerWithMss(1380)).isEqualTo(1);
        assertThat(synsAtServerWithMss(1460)).isZero();
        assertThat(synAcksAtClientWithMss(1380)).isEqualTo(1);
        assertThat(synAcksAtClientWithMss(1460)).isZero();
    }

    @Test
    void aSynOffering1360ReachesTheServerWith1360() {
        rig.in("c", "ip", "link", "set", "cr", "mtu", "1400");
        connect();
        assertThat(synsAtServerWithMss(1360)).as("never raised to 1380").isEqualTo(1);
        assertThat(synsAtServerWithMss(1380)).isZero();
        assertThat(synAcksAtClientWithMss(1380)).as("the server's 1460 is still lowered").isEqualTo(1);
    }
}
