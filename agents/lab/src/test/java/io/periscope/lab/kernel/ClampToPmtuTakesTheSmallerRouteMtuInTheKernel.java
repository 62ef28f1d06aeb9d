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
 * Upstream's MTU handler clamp as the planner writes it (mangle SUBMARINER-POSTROUTING,
 * SUBMARINER-LOCALCIDRS / SUBMARINER-REMOTECIDRS, {@code TCPMSS --clamp-mss-to-pmtu}) on router r
 * between client c (10.77.1.2) and server s (10.77.2.2), with r's link to s at 1450 bytes, as a
 * vx-submariner over a 1500-byte interface is. s counts the SYNs it gets by their MSS, c the
 * SYN-ACKs: both arrive with 1410, the smaller route MTU less 40 (for the SYN-ACK that is the route
 * back to the server). On 1500-byte links both keep 1460. The simulator's
 * {@code ClampToPmtuTakesTheSmallerRouteMtu} predicts the same from the same rules.
 */
class ClampToPmtuTakesTheSmallerRouteMtuInTheKernel {

    private NamespaceRig rig;

    private static List<Rule> plannedRules() {
        return List.of(rule("SUBMARINER-LOCALCIDRS", "SUBMARINER-REMOTECIDRS"), rule("SUBMARINER-REMOTECIDRS", "SUBMARINER-LOCALCIDRS"));
    }

    private static Rule rule(String source, String destination) {
        return Rule.of(new Target.ClampMssToPmtu(), new Match.ProtocolIs(Protocol.TCP), new Match.SetMatch(source, true, false),
                new Match.SetMatch(destination, false, false), new Match.TcpSyn());
    }

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ipset", "ipset");
        rig = NamespaceRig.clientRouterServer("cm");
        for (String mss : new String[] {"1410", "1460"}) {
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
    void bothSynsLeaveTheRouterWithTheSmallerRouteMtuLess40() {
        rig.in("r", "ip", "link", "set", "rs", "mtu", "1450");
        connect();
        assertThat(synsAtServerWithMss(1410)).isEqualTo(1);
        assertThat(synsAtServerWithMss(1460)).isZero();
        assertThat(synAcksAtClientWithMss(1410)).as("the route back to the server is the 1450-byte link").isEqualTo(1);
        assertThat(synAcksAtClientWithMss(1460)).isZero();
    }

    @Test
    void onLinksOf1500NothingIsLowered() {
        connect();
        assertThat(synsAtServerWithMss(1460)).isEqualTo(1);
        assertThat(synAcksAtClientWithMss(1460)).isEqualTo(1);
    }
}
