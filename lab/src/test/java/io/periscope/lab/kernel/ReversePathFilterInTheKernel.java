package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the kernel's reverse-path filter drops: the shape of the simulator's
 * {@code ReversePathFilterDropsLikeTheKernel}. Client c (10.77.1.2) pings server s (10.77.2.2)
 * through router r, which receives the echo request on rc but routes c's address back through s
 * (by rs). s counts the echo requests that reach it.
 */
class ReversePathFilterInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ping", "iputils-ping");
        rig = NamespaceRig.clientRouterServer("rp");
        rig.in("r", "ip", "route", "add", "10.77.1.2/32", "via", "10.77.2.2");
        rig.in("s", "iptables", "-A", "INPUT", "-p", "icmp", "--icmp-type", "echo-request");
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private long echoRequestsReachingTheServer() {
        rig.script("c", "ping -c 1 -W 1 10.77.2.2 >/dev/null");
        return rig.packets("s", "filter", "--icmp-type 8");
    }

    private void sysctl(String key, int value) {
        rig.in("r", "sysctl", "-qw", key + "=" + value);
    }

    @Test
    void offLetsTheAsymmetricPacketThrough() {
        assertThat(echoRequestsReachingTheServer()).isEqualTo(1);
    }

    @Test
    void strictOnTheInputDeviceDropsIt() {
        sysctl("net.ipv4.conf.rc.rp_filter", 1);
        assertThat(echoRequestsReachingTheServer()).isZero();
    }

    @Test
    void strictForAllWinsOverOffOnTheDevice() {
        sysctl("net.ipv4.conf.all.rp_filter", 1);
        sysctl("net.ipv4.conf.rc.rp_filter", 0);
        assertThat(echoRequestsReachingTheServer()).isZero();
    }

    @Test
    void looseLetsItThroughBecauseTheSourceIsRoutable() {
        sysctl("net.ipv4.conf.rc.rp_filter", 2);
        assertThat(echoRequestsReachingTheServer()).isEqualTo(1);
    }

    @Test
    void looseOverStrictForAllIsLooseOnTheDevice() {
        sysctl("net.ipv4.conf.all.rp_filter", 1);
        sysctl("net.ipv4.conf.rc.rp_filter", 2);
        assertThat(echoRequestsReachingTheServer()).isEqualTo(1);
    }

    @Test
    void looseDropsWhenTheWayBackIsNotAUnicastRoute() {
        sysctl("net.ipv4.conf.rc.rp_filter", 2);
        rig.in("r", "ip", "route", "replace", "blackhole", "10.77.1.2/32");
        assertThat(echoRequestsReachingTheServer()).isZero();
    }
}
