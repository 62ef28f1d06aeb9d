package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MSS clamp as the planner writes it (mangle SUBMARINER-POSTROUTING, the
 * SUBMARINER-LOCALCIDRS and SUBMARINER-REMOTECIDRS sets, {@code --clamp-mss-to-pmtu}), on router r
 * between client c (10.77.1.2, MTU 1500, so its SYNs offer MSS 1460) and server s (10.77.2.2), whose
 * link to r has MTU 1400. s counts the SYNs it gets by the MSS they offer. The simulator's
 * {@code MssClampCoversForwardedAndHostTraffic} predicts which SYNs meet the clamp on a planned node.
 */
class MssClampInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ipset", "ipset");
        rig = NamespaceRig.clientRouterServer("ms");
        rig.in("r", "ip", "link", "set", "rs", "mtu", "1400");
        rig.in("s", "ip", "link", "set", "sr", "mtu", "1400");
        for (String mss : new String[] {"1360", "1460"}) {
            rig.in("s", "iptables", "-A", "INPUT", "-p", "tcp", "--syn", "-m", "tcpmss", "--mss", mss);
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

    /** The sets hold what the planner puts in them: here c's subnet is local and s's remote. */
    private void clampOnR() {
        rig.in("r", "ipset", "create", "SUBMARINER-LOCALCIDRS", "hash:net");
        rig.in("r", "ipset", "create", "SUBMARINER-REMOTECIDRS", "hash:net");
        rig.in("r", "ipset", "add", "SUBMARINER-LOCALCIDRS", "10.77.1.0/24");
        rig.in("r", "ipset", "add", "SUBMARINER-REMOTECIDRS", "10.77.2.0/24");
        rig.in("r", "iptables", "-t", "mangle", "-N", "SUBMARINER-POSTROUTING");
        rig.in("r", "iptables", "-t", "mangle", "-I", "POSTROUTING", "1", "-j", "SUBMARINER-POSTROUTING");
        for (String[] way : new String[][] {{"SUBMARINER-LOCALCIDRS", "SUBMARINER-REMOTECIDRS"}, {"SUBMARINER-REMOTECIDRS", "SUBMARINER-LOCALCIDRS"}}) {
            rig.in("r", "iptables", "-t", "mangle", "-A", "SUBMARINER-POSTROUTING", "-m", "set", "--match-set", way[0], "src", "-m", "set",
                    "--match-set", way[1], "dst", "-p", "tcp", "-m", "tcp", "--tcp-flags", "SYN,RST", "SYN", "-j", "TCPMSS",
                    "--clamp-mss-to-pmtu");
        }
    }

    private long synsWithMss(int mss) {
        return rig.packets("s", "filter", "--mss " + mss);
    }

    private long clampHits() {
        return rig.packets("r", "mangle", "--match-set SUBMARINER-LOCALCIDRS src -m set --match-set SUBMARINER-REMOTECIDRS dst");
    }

    @Test
    void withoutTheClampTheServerSeesTheClientsMss() {
        assertThat(rig.script("c", "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
        assertThat(synsWithMss(1460)).isEqualTo(1);
        assertThat(synsWithMss(1360)).isZero();
    }

    @Test
    void aForwardedSynBetweenTheSetsIsClampedToThePathMtu() {
        clampOnR();
        assertThat(rig.script("c", "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
        assertThat(synsWithMss(1360)).isEqualTo(1);
        assertThat(synsWithMss(1460)).isZero();
        assertThat(clampHits()).isEqualTo(1);
    }

    @Test
    void aSynTheRouterSendsItselfFromALocalAddressPassesTheClampToo() {
        clampOnR();
        // The way a node's own traffic to remote clusters leaves: from its CNI address (table 150's src).
        rig.in("r", "ip", "route", "replace", "10.77.2.2/32", "dev", "rs", "src", "10.77.1.1");
        assertThat(rig.script("r", "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
        assertThat(clampHits()).as("mangle POSTROUTING sees host-originated SYNs").isEqualTo(1);
    }
}
