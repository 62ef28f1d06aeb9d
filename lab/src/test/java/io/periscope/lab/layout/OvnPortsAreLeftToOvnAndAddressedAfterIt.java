package io.periscope.lab.layout;

import io.periscope.lab.Examples;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On an OVN-Kubernetes cluster the ports of OVN's logical switches (a node's {@code ovn-k8s-mp0}, a
 * pod's {@code eth0}) and Submariner's {@code ovn-k8s-sub0} are OVS's to create: the layout wires no
 * switch for them, the host batch leaves them out, and their own batch, run once OVN plugged them,
 * gives them the plan's addresses and routes.
 */
class OvnPortsAreLeftToOvnAndAddressedAfterIt {

    private final LabLayout layout = LabLayout.of(Examples.plan(Examples.GLOBALNET_OVN));

    @Test
    void noSwitchNamespaceStandsInForAnOvnLogicalSwitch() {
        assertThat(layout.switches()).extracting(SwitchNamespace::segment).noneMatch(s -> s.contains("/ovn/"));
        assertThat(layout.veths()).noneMatch(v -> v.first().name().equals("ovn-k8s-mp0") || v.second().name().equals("ovn-k8s-mp0"));
    }

    @Test
    void aNodesHostBatchLeavesOutItsOvnPortsAndTheRoutesThroughThemAndOvnK8sSub0ToTheAgents() {
        HostNamespace gateway = layout.requireHost(HostId.node("east", "east-gw"));
        List<String> host = LabBatches.hostBatch(gateway).lines().toList();
        List<String> ovn = LabBatches.ovnInterfaces(gateway).orElseThrow().lines().toList();

        assertThat(host).contains("addr add 192.168.10.2/32 dev eth0").noneMatch(l -> l.contains("ovn-k8s-mp0") || l.contains("ovn-k8s-sub0"));
        assertThat(ovn).contains("addr add 10.244.0.1/32 dev ovn-k8s-mp0", "link set ovn-k8s-mp0 up",
                "route append 10.244.0.0/16 table 254 metric 0 proto boot via 10.244.0.2 dev ovn-k8s-mp0")
                .noneMatch(l -> l.contains("ovn-k8s-sub0"));
    }

    @Test
    void aWorkersOvnK8sSub0IsNoLinuxBridgeButLeftToBrSubmariner() {
        HostNamespace worker = layout.requireHost(HostId.node("east", "east-worker"));

        assertThat(LabBatches.ovnInterfaceNames(worker)).contains("ovn-k8s-mp0", "ovn-k8s-sub0");
        assertThat(LabBatches.hostBatch(worker).lines()).noneMatch(l -> l.contains("ovn-k8s-sub0"));
    }

    @Test
    void aPodsAddressAndDefaultRouteComeOnlyOnceOvnPluggedItsEth0() {
        HostNamespace web = layout.requireHost(HostId.pod("east", "default", "web"));

        assertThat(LabBatches.hostBatch(web).lines()).containsExactly("link set lo up");
        assertThat(LabBatches.ovnInterfaces(web).orElseThrow().lines()).containsExactly("addr add 10.244.1.10/32 dev eth0", "link set eth0 up",
                "route append 0.0.0.0/0 table 254 metric 0 proto boot via 10.244.1.2 dev eth0 onlink");
    }

    @Test
    void aKubeProxyClustersHostsHaveNothingLeftForOvn() {
        LabLayout other = LabLayout.of(Examples.plan(Examples.MAG_GLOBALNET));

        assertThat(other.hosts()).allMatch(h -> LabBatches.ovnInterfaces(h).isEmpty());
    }
}
