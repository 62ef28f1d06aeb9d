package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Globalnet's mark meeting kube-proxy's, on router r between c (10.77.1.2) and s (10.77.2.2, standing
 * for a remote global CIDR). nat PREROUTING marks every packet 0x4000 as KUBE-MARK-MASQ does; nat
 * POSTROUTING runs SUBMARINER-GN-EGRESS (SUBMARINER-GN-MARK, then SM-GN-EGRESS-CLUSTER) before
 * KUBE-POSTROUTING's MASQUERADE of 0x4000, as on a gateway. Two rules without a target count, after
 * SUBMARINER-GN-MARK, the packets carrying Globalnet's bits and those carrying kube-proxy's.
 *
 * <p>Upstream's packetfilter (pkg/packetfilter/iptables, 0.18 and later) and the seeds' README write
 * {@code --set-mark 0xC0000/0xC0000}, which iptables-save prints as {@code --set-xmark 0xc0000/0xc0000}:
 * Globalnet's bits are added and kube-proxy's 0x4000 stays (mark 0xc4000). The SNAT's masked
 * {@code -m mark --mark 0xc0000/0xc0000} still matches, and SNAT ends nat POSTROUTING for the packet;
 * a packet no Globalnet SNAT covers reaches KUBE-POSTROUTING with 0x4000 and is masqueraded. The
 * simulator's {@code GlobalnetMarkKeepsKubeProxysBit} predicts the same.
 */
class GlobalnetMarkKeepsKubeProxysBitInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        rig = NamespaceRig.clientRouterServer("gm");
        rig.in("s", "ip", "route", "add", "242.0.0.0/28", "via", "10.77.2.1");
        for (String source : new String[] {"242.0.0.0/28", "10.77.1.2/32", "10.77.2.1/32"}) {
            rig.in("s", "iptables", "-A", "INPUT", "-s", source, "-p", "icmp", "--icmp-type", "echo-request");
        }
        for (String chain : new String[] {"SUBMARINER-GN-EGRESS", "SUBMARINER-GN-MARK", "SM-GN-EGRESS-CLUSTER", "KUBE-MARK-MASQ",
                "KUBE-POSTROUTING"}) {
            rig.in("r", "iptables", "-t", "nat", "-N", chain);
        }
        rig.in("r", "iptables", "-t", "nat", "-A", "PREROUTING", "-j", "KUBE-MARK-MASQ");
        rig.in("r", "iptables", "-t", "nat", "-A", "KUBE-MARK-MASQ", "-j", "MARK", "--set-xmark", "0x4000/0x4000");
        rig.in("r", "iptables", "-t", "nat", "-A", "POSTROUTING", "-j", "SUBMARINER-GN-EGRESS");
        rig.in("r", "iptables", "-t", "nat", "-A", "POSTROUTING", "-j", "KUBE-POSTROUTING");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-j", "SUBMARINER-GN-MARK");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-m", "mark", "--mark", "0xc0000/0xc0000");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-m", "mark", "--mark", "0x4000/0x4000");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-j", "SM-GN-EGRESS-CLUSTER");
        rig.in("r", "iptables", "-t", "nat", "-A", "KUBE-POSTROUTING", "-m", "mark", "--mark", "0x4000/0x4000", "-j", "MASQUERADE");
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    /** Globalnet's two rules as upstream's packetfilter writes them. */
    private void globalnet(String snatSource) {
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-MARK", "-d", "10.77.2.0/24", "-j", "MARK", "--set-mark", "0xc0000/0xc0000");
        rig.in("r", "iptables", "-t", "nat", "-A", "SM-GN-EGRESS-CLUSTER", "-s", snatSource, "-m", "mark", "--mark", "0xc0000/0xc0000",
                "-j", "SNAT", "--to-source", "242.0.0.1-242.0.0.8");
    }

    private long echoRequestsAtSFrom(String source) {
        return rig.packets("s", "filter", "-s " + source + " -p icmp");
    }

    private long globalnetsBitsAreSet() {
        return rig.packets("r", "nat", "-A SUBMARINER-GN-EGRESS -m mark --mark 0xc0000/0xc0000");
    }

    private long kubeProxysBitIsSet() {
        return rig.packets("r", "nat", "-A SUBMARINER-GN-EGRESS -m mark --mark 0x4000/0x4000");
    }

    private long masqueraded() {
        return rig.packets("r", "nat", "-A KUBE-POSTROUTING -m mark --mark 0x4000/0x4000 -j MASQUERADE");
    }

    private long snatted() {
        return rig.packets("r", "nat", "-j SNAT --to-source 242.0.0.1-242.0.0.8");
    }

    @Test
    void iptablesSaveShowsTheMarkAsTheSeedsWriteIt() {
        globalnet("10.77.1.0/24");
        String saved = rig.in("r", "iptables-save", "-t", "nat");
        assertThat(saved).contains("-A SUBMARINER-GN-MARK -d 10.77.2.0/24 -j MARK --set-xmark 0xc0000/0xc0000")
                .contains("-A SM-GN-EGRESS-CLUSTER -s 10.77.1.0/24 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8");
    }

    @Test
    void kubeProxysBitStaysAndGlobalnetSnatsToTheGlobalAddress() {
        globalnet("10.77.1.0/24");

        assertThat(rig.script("c", "ping -c 1 -W 1 10.77.2.2")).as("the reply is un-SNATed back to c").isZero();

        assertThat(globalnetsBitsAreSet()).isEqualTo(1);
        assertThat(kubeProxysBitIsSet()).as("the mark is 0xc4000").isEqualTo(1);
        assertThat(snatted()).isEqualTo(1);
        assertThat(echoRequestsAtSFrom("242.0.0.0/28")).isEqualTo(1);
        assertThat(masqueraded()).as("SNAT ended nat POSTROUTING before KUBE-POSTROUTING").isZero();
    }

    @Test
    void untranslatedByGlobalnetThePacketIsMasqueradedByKubeProxy() {
        globalnet("10.77.9.0/24");

        assertThat(rig.script("c", "ping -c 1 -W 1 10.77.2.2")).isZero();

        assertThat(globalnetsBitsAreSet()).isEqualTo(1);
        assertThat(snatted()).isZero();
        assertThat(masqueraded()).isEqualTo(1);
        assertThat(echoRequestsAtSFrom("10.77.2.1/32")).isEqualTo(1);
    }
}
