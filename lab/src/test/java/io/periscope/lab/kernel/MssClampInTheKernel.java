package io.periscope.lab.kernel;

import io.periscope.plan.netfilter.Target;
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
        rig = MssRig.build("ms", 1360, 1460);
        rig.in("r", "ip", "link", "set", "rs", "mtu", "1400");
        rig.in("s", "ip", "link", "set", "sr", "mtu", "1400");
    }

    @AfterEach
    void remove() {
        if (rig != null) {
            rig.close();
        }
    }

    /** The sets hold what the planner puts in them: here c's subnet is local and s's remote. */
    private void clampOnR() {
        MssRig.mtuHandlerChain(rig, MssRig.plannedRules(new Target.ClampMssToPmtu()));
    }

    private long synsWithMss(int mss) {
        return MssRig.synsAtServerWithMss(rig, mss);
    }

    private long clampHits() {
        return rig.packets("r", "mangle", "-m set --match-set SUBMARINER-LOCALCIDRS src -m set --match-set SUBMARINER-REMOTECIDRS dst");
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
        // The way a gateway's own traffic to remote clusters leaves: from its CNI address (table 100's src).
        rig.in("r", "ip", "route", "replace", "10.77.2.2/32", "dev", "rs", "src", "10.77.1.1");
        assertThat(rig.script("r", "exec 3<>/dev/tcp/10.77.2.2/5201")).isZero();
        assertThat(clampHits()).as("mangle POSTROUTING sees host-originated SYNs").isEqualTo(1);
    }
}
