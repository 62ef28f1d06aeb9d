package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Globalnet's cluster egress as the planner writes it on a gateway (nat SUBMARINER-GN-EGRESS jumping to
 * SUBMARINER-GN-MARK, then SM-GN-EGRESS-CLUSTER), on router r between c and s (10.77.2.2, standing for
 * a remote global CIDR). c sends from 10.96.0.5, an address of the cluster's service CIDR 10.96.0.0/16
 * (what leaves a node with a service address as source). Upstream SNATs from every local subnet, the
 * service CIDR too; with only the pod CIDR's rule the packet would reach the other cluster with an
 * address that means nothing there.
 */
class ClusterEgressFromTheServiceCidrInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        rig = NamespaceRig.clientRouterServer("gs");
        rig.in("c", "ip", "addr", "add", "10.96.0.5/32", "dev", "cr");
        rig.in("r", "ip", "route", "add", "10.96.0.5/32", "via", "10.77.1.2");
        rig.in("s", "ip", "route", "add", "242.0.0.0/29", "via", "10.77.2.1");
        rig.in("s", "iptables", "-A", "INPUT", "-s", "242.0.0.0/29", "-p", "icmp", "--icmp-type", "echo-request");
        rig.in("s", "iptables", "-A", "INPUT", "-s", "10.96.0.5/32", "-p", "icmp", "--icmp-type", "echo-request");
        rig.in("r", "iptables", "-t", "nat", "-N", "SUBMARINER-GN-EGRESS");
        rig.in("r", "iptables", "-t", "nat", "-N", "SUBMARINER-GN-MARK");
        rig.in("r", "iptables", "-t", "nat", "-N", "SM-GN-EGRESS-CLUSTER");
        rig.in("r", "iptables", "-t", "nat", "-I", "POSTROUTING", "1", "-j", "SUBMARINER-GN-EGRESS");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-j", "SUBMARINER-GN-MARK");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-EGRESS", "-j", "SM-GN-EGRESS-CLUSTER");
        rig.in("r", "iptables", "-t", "nat", "-A", "SUBMARINER-GN-MARK", "-d", "10.77.2.0/24", "-j", "MARK", "--set-xmark", "0xc0000/0xc0000");
        clusterSnatFrom("10.77.1.0/24");
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private void clusterSnatFrom(String subnet) {
        rig.in("r", "iptables", "-t", "nat", "-A", "SM-GN-EGRESS-CLUSTER", "-s", subnet, "-m", "mark", "--mark", "0xc0000/0xc0000",
                "-j", "SNAT", "--to-source", "242.0.0.1-242.0.0.8");
    }

    private long echoRequestsAtSFrom(String source) {
        return rig.packets("s", "filter", "-s " + source + " -p icmp");
    }

    @Test
    void withThePodCidrsRuleAloneAServiceAddressLeavesUntranslated() {
        rig.script("c", "ping -c 1 -W 1 -I 10.96.0.5 10.77.2.2");
        assertThat(echoRequestsAtSFrom("10.96.0.5/32")).isEqualTo(1);
        assertThat(echoRequestsAtSFrom("242.0.0.0/29")).isZero();
    }

    @Test
    void theServiceCidrsRuleGivesItAGlobalAddressAndTheReplyComesBack() {
        clusterSnatFrom("10.96.0.0/16");

        assertThat(rig.script("c", "ping -c 1 -W 1 -I 10.96.0.5 10.77.2.2")).as("the reply is un-SNATed back to 10.96.0.5").isZero();

        assertThat(echoRequestsAtSFrom("242.0.0.0/29")).isEqualTo(1);
        assertThat(echoRequestsAtSFrom("10.96.0.5/32")).isZero();
        assertThat(rig.packets("r", "nat", "-A SM-GN-EGRESS-CLUSTER -s 10.96.0.0/16")).isEqualTo(1);
    }
}
