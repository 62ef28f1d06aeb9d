package io.periscope.lab.kernel;

import io.periscope.plan.netfilter.IptablesSyntax;
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
        return MssRig.plannedRules(new Target.SetMss(1380));
    }

    @BeforeEach
    void build() {
        rig = MssRig.build("sm", 1360, 1380, 1460);
        MssRig.mtuHandlerChain(rig, plannedRules());
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    private long synsAtServerWithMss(int mss) {
        return MssRig.synsAtServerWithMss(rig, mss);
    }

    private long synAcksAtClientWithMss(int mss) {
        return MssRig.synAcksAtClientWithMss(rig, mss);
    }

    private void connect() {
        MssRig.connect(rig, "c");
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
