package io.periscope.lab.layout;

import io.periscope.lab.Examples;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LabCablesRunLibreswanAsVxlanAndKeepWireguard {

    @Test
    void aVxlanClusterSetIsBuiltAsItIs() {
        ClusterSet set = Examples.load(Examples.MAG_GLOBALNET);

        LabCables cables = LabCables.of(set);

        assertThat(cables.set()).isSameAs(set);
        assertThat(cables.substitutions()).isEmpty();
    }

    @Test
    void libreswanRunsAsVxlanAndSaysSoWhileWireguardIsKept() {
        ClusterSet set = Examples.load(Examples.GLOBALNET_EGRESS);
        CableDriverSpec wireguard = new CableDriverSpec(CableDriver.WIREGUARD, Map.of("udp-port", "4501"));
        CableDriverSpec libreswan = CableDriverSpec.of(CableDriver.LIBRESWAN);
        ClusterSet withPolicies = new ClusterSet(set.name(), set.globalnet(), set.defaultCableDriver(), set.clusters(),
                set.connectivityPolicies(), List.of(
                new ClusterConnectionPolicy(LabelSelector.ofLabels(Map.of()), LabelSelector.ofLabels(Map.of()), wireguard),
                new ClusterConnectionPolicy(LabelSelector.ofLabels(Map.of()), LabelSelector.ofLabels(Map.of()), libreswan)), set.flows());

        LabCables cables = LabCables.of(withPolicies);

        assertThat(set.defaultCableDriver()).isEqualTo(CableDriver.LIBRESWAN);
        assertThat(cables.set().defaultCableDriver()).isEqualTo(CableDriver.VXLAN);
        assertThat(cables.set().connectionPolicies()).extracting(p -> p.cableDriver())
                .containsExactly(wireguard, CableDriverSpec.of(CableDriver.VXLAN));
        assertThat(cables.set().clusters()).isEqualTo(set.clusters());
        assertThat(cables.substitutions()).containsExactly(
                "defaults.cableDriver libreswan runs as vxlan in the lab (IPsec needs the kernel's XFRM, which this kernel lacks);"
                        + " the simulator traces vxlan too, so the comparison is like for like",
                "connectionPolicies[1].cableDriver libreswan runs as vxlan in the lab (IPsec needs the kernel's XFRM, which this kernel lacks);"
                        + " the simulator traces vxlan too, so the comparison is like for like");
    }
}
