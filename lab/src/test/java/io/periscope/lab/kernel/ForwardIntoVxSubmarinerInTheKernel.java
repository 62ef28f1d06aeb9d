package io.periscope.lab.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's {@code -o vx-submariner -j ACCEPT} in SUBMARINER-FORWARD, on router r between client c
 * (10.77.1.2) and s (10.77.2.2), reached through r's device {@code vx-submariner} (a veth: the rule
 * looks at the output device's name only). r's FORWARD policy is DROP, as Docker or firewalld leave it.
 * s counts the echo requests it gets. The simulator's {@code WorkersAcceptWhatTheyForwardIntoVxSubmariner}
 * shows the planned rule accepting a pod's packet on its node.
 */
class ForwardIntoVxSubmarinerInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        rig = new NamespaceRig("fv");
        rig.namespace("c").namespace("r").namespace("s")
                .link("c", "cr", "10.77.1.2/24", "r", "rc", "10.77.1.1/24")
                .link("s", "sr", "10.77.2.2/24", "r", "vx-submariner", "10.77.2.1/24");
        rig.in("c", "ip", "route", "add", "10.77.2.0/24", "via", "10.77.1.1");
        rig.in("s", "ip", "route", "add", "10.77.1.0/24", "via", "10.77.2.1");
        rig.in("s", "iptables", "-A", "INPUT", "-p", "icmp", "--icmp-type", "echo-request");
        rig.in("r", "iptables", "-P", "FORWARD", "DROP");
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private long echoRequestsAtS() {
        return rig.packets("s", "filter", "-p icmp -m icmp --icmp-type 8");
    }

    @Test
    void aForwardPolicyOfDropStopsWhatGoesIntoVxSubmarinerWithoutTheRule() {
        rig.script("c", "ping -c 1 -W 1 10.77.2.2");
        assertThat(echoRequestsAtS()).isZero();
    }

    @Test
    void theRuleLetsThroughWhatTheNodeForwardsIntoVxSubmariner() {
        rig.in("r", "iptables", "-N", "SUBMARINER-FORWARD");
        rig.in("r", "iptables", "-I", "FORWARD", "1", "-j", "SUBMARINER-FORWARD");
        rig.in("r", "iptables", "-A", "SUBMARINER-FORWARD", "-o", "vx-submariner", "-j", "ACCEPT");

        rig.script("c", "ping -c 1 -W 1 10.77.2.2");

        assertThat(echoRequestsAtS()).isEqualTo(1);
        assertThat(rig.packets("r", "filter", "-A SUBMARINER-FORWARD -o vx-submariner -j ACCEPT")).isEqualTo(1);
    }
}
