package io.periscope.lab.kernel;

import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.periscope.lab.kernel.MssRig.connect;
import static io.periscope.lab.kernel.MssRig.synAcksAtClientWithMss;
import static io.periscope.lab.kernel.MssRig.synsAtServerWithMss;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MTU handler clamp as the planner writes it ({@code TCPMSS --clamp-mss-to-pmtu}) on
 * router r between client c and server s, with r's link to s at 1450 bytes, as a vx-submariner over
 * a 1500-byte interface is. The SYN and the SYN-ACK both arrive with 1410: the smaller route MTU less
 * 40 (for the SYN-ACK, the route back to the server). On 1500-byte links both keep 1460. The
 * simulator's {@code ClampToPmtuTakesTheSmallerRouteMtu} predicts the same from the same rules.
 */
class ClampToPmtuTakesTheSmallerRouteMtuInTheKernel {

    private NamespaceRig rig;

    @BeforeEach
    void build() {
        rig = MssRig.build("cm", 1410, 1460);
        MssRig.mtuHandlerChain(rig, MssRig.plannedRules(new Target.ClampMssToPmtu()));
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void bothSynsLeaveTheRouterWithTheSmallerRouteMtuLess40() {
        rig.in("r", "ip", "link", "set", "rs", "mtu", "1450");
        connect(rig, "c");
        assertThat(synsAtServerWithMss(rig, 1410)).isEqualTo(1);
        assertThat(synsAtServerWithMss(rig, 1460)).isZero();
        assertThat(synAcksAtClientWithMss(rig, 1410)).as("the route back to the server is the 1450-byte link").isEqualTo(1);
        assertThat(synAcksAtClientWithMss(rig, 1460)).isZero();
    }

    @Test
    void onLinksOf1500NothingIsLowered() {
        connect(rig, "c");
        assertThat(synsAtServerWithMss(rig, 1460)).isEqualTo(1);
        assertThat(synAcksAtClientWithMss(rig, 1460)).isEqualTo(1);
    }
}
