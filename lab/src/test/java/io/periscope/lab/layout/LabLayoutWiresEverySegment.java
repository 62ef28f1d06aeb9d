package io.periscope.lab.layout;

import io.periscope.lab.Examples;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.link.MacAddress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LabLayoutWiresEverySegment {

    private final ClusterSetPlan plan = Examples.plan(Examples.MAG_GLOBALNET);
    private final LabLayout layout = LabLayout.of(plan);

    @Test
    void everyHostGetsANamespaceAndEveryBridgeSegmentASwitch() {
        assertThat(layout.hosts()).hasSize(8);
        assertThat(layout.nodes()).hasSize(6);
        assertThat(layout.switches()).extracting(SwitchNamespace::segment)
                .containsExactlyInAnyOrder("cluster1/underlay", "cluster2/underlay", "wan");
        assertThat(layout.namespaces()).hasSize(11).doesNotHaveDuplicates().allMatch(n -> n.startsWith(layout.names().prefix()));
    }

    @Test
    void theWanSwitchHasAPortPerActiveGatewayOfEveryCluster() {
        SwitchNamespace wan = layout.switches().stream().filter(s -> s.segment().equals("wan")).findFirst().orElseThrow();

        assertThat(wan.ports()).extracting(SwitchPort::name).containsExactly("gw-1", "gw-2", "gw-3", "gw-4");
        assertThat(wan.ports()).allMatch(p -> p.hostInterface().equals("wan0"));
    }

    @Test
    void podsHangOffTheirNodeByAVethWithThePlansNamesAndMacs() {
        String client = layout.requireHost(HostId.pod("cluster1", "default", "client")).namespace();
        String worker = layout.requireHost(HostId.node("cluster1", "worker-1")).namespace();

        VethPair pair = layout.veths().stream().filter(v -> v.first().namespace().equals(client)).findFirst().orElseThrow();

        assertThat(pair.first()).isEqualTo(new VethEnd(client, "eth0", Optional.of(MacAddress.parse("02:02:0a:00:80:04"))));
        assertThat(pair.second()).isEqualTo(new VethEnd(worker, "p-client", Optional.of(MacAddress.parse("02:03:0a:00:80:04"))));
    }

    @Test
    void noVethEndLivesOutsideTheLabsNamespaces() {
        List<String> namespaces = layout.namespaces();

        assertThat(layout.veths()).allSatisfy(v -> {
            assertThat(namespaces).contains(v.first().namespace());
            assertThat(namespaces).contains(v.second().namespace());
        });
    }
}
