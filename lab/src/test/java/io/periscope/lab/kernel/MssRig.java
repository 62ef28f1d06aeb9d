package io.periscope.lab.kernel;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rig of the MSS tests: client c (10.77.1.2), router r, server s (10.77.2.2) with an iperf3
 * listening on 5201; s counts the SYNs it gets and c the SYN-ACKs, by the MSS they carry; r gets
 * upstream's MTU handler chain (mangle SUBMARINER-POSTROUTING over SUBMARINER-LOCALCIDRS, c's subnet,
 * and SUBMARINER-REMOTECIDRS, s's) with the planner's own rule text.
 */
final class MssRig {

    private MssRig() {
    }

    /** The rig, counting SYNs and SYN-ACKs with each of {@code msses}. */
    static NamespaceRig build(String tag, int... msses) {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ipset", "ipset");
        NamespaceRig rig = NamespaceRig.clientRouterServer(tag);
        for (int mss : msses) {
            rig.in("s", "iptables", "-A", "INPUT", "-p", "tcp", "--syn", "-m", "tcpmss", "--mss", String.valueOf(mss));
            rig.in("c", "iptables", "-A", "INPUT", "-p", "tcp", "--tcp-flags", "SYN,ACK", "SYN,ACK", "-m", "tcpmss", "--mss",
                    String.valueOf(mss));
        }
        rig.background("s", "iperf3", "-s", "-B", "10.77.2.2");
        int tries = 0;
        while (rig.script("s", "ss -ltn | grep -q 10.77.2.2:5201") != 0 && ++tries < 50) {
            rig.script("s", "sleep 0.1");
        }
        return rig;
    }

    /** The pair of rules the planner writes with {@code target}: local to remote, then remote to local. */
    static List<Rule> plannedRules(Target target) {
        return List.of(rule(target, "SUBMARINER-LOCALCIDRS", "SUBMARINER-REMOTECIDRS"),
                rule(target, "SUBMARINER-REMOTECIDRS", "SUBMARINER-LOCALCIDRS"));
    }

    private static Rule rule(Target target, String source, String destination) {
        return Rule.of(target, new Match.ProtocolIs(Protocol.TCP), new Match.SetMatch(source, true, false),
                new Match.SetMatch(destination, false, false), new Match.TcpSyn());
    }

    /** Upstream's chain on r, its sets holding c's subnet (local) and s's (remote), with {@code rules}. */
    static void mtuHandlerChain(NamespaceRig rig, List<Rule> rules) {
        rig.in("r", "ipset", "create", "SUBMARINER-LOCALCIDRS", "hash:net");
        rig.in("r", "ipset", "create", "SUBMARINER-REMOTECIDRS", "hash:net");
        rig.in("r", "ipset", "add", "SUBMARINER-LOCALCIDRS", "10.77.1.0/24");
        rig.in("r", "ipset", "add", "SUBMARINER-REMOTECIDRS", "10.77.2.0/24");
        rig.in("r", "iptables", "-t", "mangle", "-N", "SUBMARINER-POSTROUTING");
        rig.in("r", "iptables", "-t", "mangle", "-I", "POSTROUTING", "1", "-j", "SUBMARINER-POSTROUTING");
        for (Rule rule : rules) {
            // The planner's own text, as iptables-restore takes it.
            assertThat(rig.script("r", "iptables -t mangle -A SUBMARINER-POSTROUTING " + IptablesSyntax.rule(rule))).isZero();
        }
    }

    static long synsAtServerWithMss(NamespaceRig rig, int mss) {
        return rig.packets("s", "filter", "--tcp-flags FIN,SYN,RST,ACK SYN -m tcpmss --mss " + mss);
    }

    static long synAcksAtClientWithMss(NamespaceRig rig, int mss) {
        return rig.packets("c", "filter", "--tcp-flags SYN,ACK SYN,ACK -m tcpmss --mss " + mss);
    }

    /** A TCP connection from {@code from} (c, or r itself) to s's iperf3. */
    static void connect(NamespaceRig rig, String from) {
        assertThat(rig.script(from, "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
    }
}
