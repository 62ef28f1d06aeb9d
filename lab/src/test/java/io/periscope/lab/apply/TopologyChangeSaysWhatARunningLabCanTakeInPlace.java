package io.periscope.lab.apply;

import io.periscope.lab.Examples;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edits of {@code globalnet-egress.yaml} (two clusters, VXLAN cables) as a person makes them, compared
 * the way {@code lab apply} compares them: written and read back as the supervisor reads its copy.
 */
class TopologyChangeSaysWhatARunningLabCanTakeInPlace {

    static final String APART = "connectivityPolicies:\n  - {name: nobody, leftClusterSelector: {zone: none}, rightClusterSelector: {zone: none}}\n";

    private static String original() throws Exception {
        return Files.readString(Examples.file(Examples.GLOBALNET_EGRESS));
    }

    private static ClusterSet asWritten(String yaml) throws Exception {
        ClusterSet set = TopologyLoader.parse(yaml, "edited.yaml");
        Path file = Files.createTempFile("periscope-change", ".yaml");
        try {
            Files.writeString(file, TopologyWriter.write(set.withFlows(List.of())));
            return TopologyLoader.loadWritten(file);
        } finally {
            Files.delete(file);
        }
    }

    private static TopologyChange change(String edited) throws Exception {
        return TopologyChange.between(asWritten(original()), asWritten(edited));
    }

    @Test
    void aConnectivityPolicyThatKeepsTheClustersApartIsTakenInPlace() throws Exception {
        TopologyChange change = change(original().replace("flows:\n", APART + "flows:\n"));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("connectivityPolicies");
    }

    @Test
    void aConnectionPolicyToACableTheAgentsBuildIsTakenInPlace() throws Exception {
        // Libreswan runs as VXLAN in the lab: the agents build and remove VXLAN devices themselves.
        TopologyChange change = change(original().replace("flows:\n", "connectionPolicies:\n"
                + "  - {leftClusterSelector: {}, rightClusterSelector: {}, cableDriver: {name: libreswan}}\nflows:\n"));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("connectionPolicies");
    }

    @Test
    void aConnectionPolicyToWireGuardIsRefusedBecauseUpStartsItsDevices() throws Exception {
        TopologyChange change = change(original().replace("flows:\n", "connectionPolicies:\n"
                + "  - {leftClusterSelector: {}, rightClusterSelector: {}, cableDriver: {name: wireguard}}\nflows:\n"));

        assertThat(change.takenInPlace()).isFalse();
        assertThat(change.refusals()).singleElement().asString().startsWith("connectionPolicies:")
                .contains("WireGuard devices of east/east-gw, west/west-gw", "wireguard-go");
    }

    @Test
    void aDeletedExportIsTakenInPlaceForTheAgentsToRemoveItsRules() throws Exception {
        TopologyChange change = change(original().replace("exports: [default/nginx, myproject/http]", "exports: [myproject/http]"));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("the exports of cluster 'west'");
    }

    @Test
    void aDeletedGlobalEgressIpIsTakenInPlace() throws Exception {
        TopologyChange change = change(original().replace(
                "      - {name: db-pods, namespace: ns1, podSelector: {matchLabels: {role: db}}, numberOfIPs: 2}\n", ""));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("the globalEgressIPs of cluster 'east'");
    }

    @Test
    void aDeletedPodIsTakenInPlaceNamingTheNamespaceThatGoes() throws Exception {
        TopologyChange change = change(original().replace(
                "      - {name: http-1, namespace: myproject, node: west-gw, ip: 10.244.0.21, labels: {app: http}}\n", ""));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("cluster 'west' lost its pod myproject/http-1");
        assertThat(change.removed()).containsExactly(HostId.pod("west", "myproject", "http-1"));
    }

    /** A gateway leaving a cluster of three active gateways: its namespace goes, the other hosts stay as up built them. */
    @Test
    void aRemovedGatewayIsTakenInPlace() throws Exception {
        String mag = Files.readString(Examples.file(Examples.MAG_3_GATEWAYS));
        ClusterSet running = asWritten(mag);
        ClusterSet edited = running.withoutNodes(List.of("cluster1/gw-1"));

        TopologyChange change = TopologyChange.between(running, asWritten(TopologyWriter.write(edited)));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.removed()).contains(HostId.node("cluster1", "gw-1"))
                .allSatisfy(host -> assertThat(host.cluster()).isEqualTo("cluster1"));
        assertThat(change.changed()).singleElement().asString().startsWith("cluster 'cluster1' lost its node gw-1");
    }

    @Test
    void aNodeWhoseAddressChangedIsRefusedAsNoRemoval() throws Exception {
        TopologyChange change = change(original().replace("{name: east-worker, ip: 192.168.10.3,", "{name: east-worker, ip: 192.168.10.9,"));

        assertThat(change.takenInPlace()).isFalse();
        assertThat(change.refusals()).containsExactly("clusters: cluster 'east' changed its nodes");
        assertThat(change.removed()).isEmpty();
    }

    @Test
    void aMovedPodIsRefusedNamingItsClusterAndWhatChanged() throws Exception {
        TopologyChange change = change(original().replace("ip: 10.244.1.10, labels: {app: nginx}", "ip: 10.244.1.11, labels: {app: nginx}"));

        assertThat(change.takenInPlace()).isFalse();
        assertThat(change.refusals()).containsExactly("clusters: cluster 'west' changed its pods");
        assertThat(change.changed()).containsExactly("clusters");
    }

    @Test
    void anAddedNodeAndGlobalnetSettingsAreRefusedTogether() throws Exception {
        TopologyChange change = change(original().replace("clusterSize: 65536", "clusterSize: 16384")
                .replace("      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n",
                        "      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n      - {name: east-w2, ip: 192.168.10.4, cniIP: 10.244.2.1}\n"));

        assertThat(change.refusals()).hasSize(2);
        assertThat(change.refusals().getFirst()).startsWith("globalnet:");
        assertThat(change.refusals().get(1)).isEqualTo("clusters: cluster 'east' changed its nodes");
    }

    /** The supervisor's link loop reshapes links in place: a rate, a loss or a cable added changes no host, address or device. */
    @Test
    void uplinksAndCablesAreTakenInPlace() throws Exception {
        TopologyChange change = change(original()
                .replace("{name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}",
                        "{name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1, uplink: {rate: 20mbit, loss: 1%}}")
                .replace("flows:\n", "cables:\n  - {between: [east, west], rate: 10mbit, delay: 20ms}\nflows:\n"));

        assertThat(change.takenInPlace()).as(change.refusals().toString()).isTrue();
        assertThat(change.changed()).containsExactly("uplinks", "cables");
    }

    @Test
    void anUplinkChangedAlongWithANodesAddressIsRefusedForTheAddressOnly() throws Exception {
        TopologyChange change = change(original().replace("{name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}",
                "{name: east-worker, ip: 192.168.10.4, cniIP: 10.244.1.1, uplink: {rate: 20mbit}}"));

        assertThat(change.takenInPlace()).isFalse();
        assertThat(change.refusals()).containsExactly("clusters: cluster 'east' changed its nodes");
    }

    @Test
    void flowsAreNotTheLabsBusiness() throws Exception {
        TopologyChange change = change(original().replace("expect: delivered}", "expect: unreachable}"));

        assertThat(change.none()).isTrue();
        assertThat(change.takenInPlace()).isTrue();
    }
}
