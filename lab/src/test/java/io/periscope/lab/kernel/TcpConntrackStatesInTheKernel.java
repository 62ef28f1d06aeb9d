package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the kernel's TCP conntrack does to a segment a router has no connection for: the shape of
 * the simulator's {@code TcpConntrackStatesDecideWhatNatSees}. Client c (10.77.1.2) reaches server s
 * (10.77.3.2, an iperf3 listening) through router r1; s routes everything back through router r2,
 * so the SYN-ACK crosses to a router that never saw the SYN. Both routers count what they forward
 * by ctstate (mangle FORWARD rules without a target) and masquerade what they send towards the client
 * (r2 also towards the server), so a translation shows in a counter and in the addresses the ends see.
 */
class TcpConntrackStatesInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        rig = new NamespaceRig("ct");
        rig.namespace("c").namespace("s").namespace("r1").namespace("r2")
                .link("c", "ca", "10.77.1.2/24", "r1", "rc", "10.77.1.1/24")
                .link("c", "cb", "10.77.2.2/24", "r2", "rc", "10.77.2.1/24")
                .link("s", "sa", "10.77.3.2/24", "r1", "rs", "10.77.3.1/24")
                .link("s", "sb", "10.77.4.2/24", "r2", "rs", "10.77.4.1/24");
        rig.in("c", "ip", "route", "add", "10.77.3.0/24", "via", "10.77.1.1");
        rig.in("s", "ip", "route", "add", "10.77.1.0/24", "via", "10.77.4.1");
        rig.in("r2", "ip", "route", "add", "10.77.1.0/24", "via", "10.77.2.2");
        for (String router : java.util.List.of("r1", "r2")) {
            for (String state : new String[] {"NEW", "ESTABLISHED", "INVALID"}) {
                rig.in(router, "iptables", "-t", "mangle", "-A", "FORWARD", "-p", "tcp", "-m", "conntrack", "--ctstate", state);
                // The same for SYN-ACKs alone: the client's FIN and the server's ACK of it cross too.
                rig.in(router, "iptables", "-t", "mangle", "-A", "FORWARD", "-p", "tcp", "-m", "tcp", "--tcp-flags", "SYN,ACK", "SYN,ACK",
                        "-m", "conntrack", "--ctstate", state);
            }
            rig.in(router, "iptables", "-t", "nat", "-A", "POSTROUTING", "-p", "tcp", "-o", "rc", "-j", "MASQUERADE");
        }
        // r2 also masquerades towards the server (r1 must not: the server would answer r1 directly).
        rig.in("r2", "iptables", "-t", "nat", "-A", "POSTROUTING", "-p", "tcp", "-o", "rs", "-j", "MASQUERADE");
        rig.background("s", "iperf3", "-s", "-B", "10.77.3.2");
        // Until the server listens, a connection is refused; wait for it on the direct path.
        int tries = 0;
        while (rig.script("c", "exec 3<>/dev/tcp/10.77.3.2/5201") != 0 && ++tries < 50) {
            rig.script("c", "sleep 0.1");
        }
        // That probe went through r1 and r2 too: start counting afresh.
        for (String router : java.util.List.of("r1", "r2")) {
            rig.in(router, "iptables", "-t", "mangle", "-Z");
            rig.in(router, "iptables", "-t", "nat", "-Z");
            rig.in(router, "conntrack", "-F");
        }
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private long count(String router, String state) {
        return rig.packets(router, "mangle", "-p tcp -m conntrack --ctstate " + state);
    }

    private long synAcks(String router, String state) {
        return rig.packets(router, "mangle", "--tcp-flags SYN,ACK SYN,ACK -m conntrack --ctstate " + state);
    }

    private long masqueraded(String router, String towards) {
        return rig.packets(router, "nat", "-o " + towards + " -p tcp -j MASQUERADE");
    }

    @Test
    void aSynAckCrossingToARouterWithoutTheConnectionIsInvalidThereAndNotNated() {
        int connected = rig.script("c", "exec 3<>/dev/tcp/10.77.3.2/5201");

        assertThat(connected).as("the client connects: the SYN-ACK reached it with the server's address").isZero();
        assertThat(synAcks("r2", "INVALID")).as("r2 saw the SYN-ACK as INVALID").isEqualTo(1);
        assertThat(synAcks("r2", "NEW") + synAcks("r2", "ESTABLISHED")).isZero();
        assertThat(count("r1", "NEW")).as("r1 saw the SYN as NEW").isEqualTo(1);
    }

    @Test
    void aRuleDroppingInvalidPacketsDropsTheCrossedSynAck() {
        rig.in("r2", "iptables", "-A", "FORWARD", "-m", "conntrack", "--ctstate", "INVALID", "-j", "DROP");
        int connected = rig.script("c", "timeout 2 bash -c 'exec 3<>/dev/tcp/10.77.3.2/5201'");

        assertThat(connected).as("the client never connects").isNotZero();
        assertThat(rig.packets("r2", "filter", "--ctstate INVALID -j DROP")).isGreaterThanOrEqualTo(1);
    }

    /** The segment after a route change (a connection moving to another gateway) with the given tcp_loose on r2. */
    private void moveAnEstablishedConnectionToR2(int tcpLoose) {
        rig.in("r2", "sysctl", "-qw", "net.netfilter.nf_conntrack_tcp_loose=" + tcpLoose);
        // Both ways through r1 first, then the client's route moves to r2 and the client sends data.
        rig.in("s", "ip", "route", "replace", "10.77.1.0/24", "via", "10.77.3.1");
        rig.in("r2", "ip", "route", "add", "10.77.3.0/24", "via", "10.77.4.2");
        int sent = rig.script("c", "exec 3<>/dev/tcp/10.77.3.2/5201 && ip route replace 10.77.3.0/24 via 10.77.2.1"
                + " && printf x >&3 && sleep 0.3");
        assertThat(sent).isZero();
    }

    @Test
    void aMidStreamSegmentIsPickedUpAndNatedWhereTcpLooseIsOn() {
        moveAnEstablishedConnectionToR2(1);
        assertThat(count("r2", "NEW")).as("r2 picked the connection up").isGreaterThanOrEqualTo(1);
        assertThat(count("r2", "INVALID")).isZero();
        assertThat(masqueraded("r2", "rs")).as("and the picked-up connection went through NAT").isGreaterThanOrEqualTo(1);
        // No entry is left to list: the server resets what comes from r2's address, and a
        // connection whose only reply is a RST is deleted at once (nf_conntrack_proto_tcp.c).
    }

    @Test
    void aMidStreamSegmentIsInvalidAndNotNatedWhereTcpLooseIsOff() {
        moveAnEstablishedConnectionToR2(0);
        assertThat(count("r2", "INVALID")).isGreaterThanOrEqualTo(1);
        assertThat(count("r2", "NEW")).isZero();
        assertThat(masqueraded("r2", "rs")).isZero();
        assertThat(rig.tcpConnections("r2")).isEmpty();
    }
}
