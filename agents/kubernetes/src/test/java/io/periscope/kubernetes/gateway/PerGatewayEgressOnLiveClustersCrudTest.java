package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.testing.FreshNode;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code egress_ownership: per-gateway} on a live cluster with two active gateways: the Globalnet
 * controller gives the GlobalEgressIP one slice per gateway and says so in its status, a headless
 * pod's GlobalIngressIP names its owning gateway, each gateway SNATs to its own slice and publishes
 * everything it owns in its Endpoint, and a restarted controller takes back the very same slices.
 */
class PerGatewayEgressOnLiveClustersCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private GlobalnetController globalnet;
    private GatewayAgent gw1;
    private GatewayAgent gw2;
    private final FreshNode gw1Kernel = new FreshNode();
    private final FreshNode gw2Kernel = new FreshNode();

    @BeforeEach
    void clusterWithTwoActiveGatewaysOwningTheirEgress() {
        cluster = new MockCluster();
        client = cluster.client();
        NodeAgents.perGatewayEgressClusterSet(client);
        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-0");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {gw1, gw2, globalnet}) {
            if (closeable != null) {
                closeable.close();
            }
        }
        cluster.close();
    }

    @Test
    void eachGatewayGetsAndProgramsItsOwnSliceAndPublishesWhatItOwns() throws Exception {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", true, gw2Kernel);

        assertThatEventually("the GlobalEgressIP has a slice per active gateway", () ->
                assertThat(slices()).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2"));
        List<AllocationStatus.GatewaySlice> slices = slices();
        String gw1Slice = slices.get(0).allocatedIPs().getFirst();
        String gw2Slice = slices.get(1).allocatedIPs().getFirst();
        assertThat(gw1Slice).isNotEqualTo(gw2Slice);
        var egress = GlobalnetFixture.egress(client, "ns1", "ns-egressip").orElseThrow();
        assertThat(egress.getStatus().allocatedIPs()).containsExactly(gw1Slice, gw2Slice);

        assertThatEventually("the headless pod's GlobalIngressIP names its owner", () ->
                assertThat(GlobalnetFixture.ingress(client, "default", "pod-cache-0").map(i -> i.getStatus()).map(s -> s.gateway()))
                        .hasValueSatisfying(owner -> assertThat(owner).isIn("gw-1", "gw-2")));
        var ingress = GlobalnetFixture.ingress(client, "default", "pod-cache-0").orElseThrow().getStatus();
        String owner = ingress.gateway();

        assertThatEventually("each gateway SNATs the namespace to its own slice and publishes what it owns", () -> {
            assertThat(lastNat(gw1Kernel)).contains("--to-source " + gw1Slice).doesNotContain("--to-source " + gw2Slice);
            assertThat(lastNat(gw2Kernel)).contains("--to-source " + gw2Slice).doesNotContain("--to-source " + gw1Slice);
            assertThat(endpoint("gw-1").orElseThrow().getSpec().allocatedIPs()).contains(gw1Slice).doesNotContain(gw2Slice);
            assertThat(endpoint("gw-2").orElseThrow().getSpec().allocatedIPs()).contains(gw2Slice).doesNotContain(gw1Slice);
            assertThat(endpoint(owner).orElseThrow().getSpec().allocatedIPs()).contains(ingress.allocatedIP());
        });

        // A new leader takes back exactly what status says, slice by slice: no address changes hands.
        globalnet.close();
        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-1");
        new LiveObjectsFactory(client).egress("ns2", "more", 2, null);
        assertThatEventually("the next object gets addresses nobody holds", () ->
                assertThat(GlobalnetFixture.egress(client, "ns2", "more").map(e -> e.getStatus()).map(AllocationStatus::gatewaySlices))
                        .hasValueSatisfying(s -> assertThat(s).hasSize(2)));
        assertThat(slices()).isEqualTo(slices);
        Set<String> held = new HashSet<>();
        for (var object : List.of(GlobalnetFixture.egress(client, "ns1", "ns-egressip").orElseThrow(),
                GlobalnetFixture.egress(client, "ns2", "more").orElseThrow())) {
            for (String address : object.getStatus().allocatedIPs()) {
                assertThat(held.add(address)).as(address + " held twice").isTrue();
            }
        }
    }

    /** The nat table as the latest reconcile wrote it. */
    private static String lastNat(FreshNode kernel) {
        String all = kernel.inputTo("iptables-restore");
        int start = all.lastIndexOf("*nat");
        return start < 0 ? "" : all.substring(start, all.indexOf("COMMIT", start));
    }

    private List<AllocationStatus.GatewaySlice> slices() {
        return GlobalnetFixture.gatewaySlices(client, "ns1", "ns-egressip");
    }

    private Optional<SubmarinerEndpoint> endpoint(String node) {
        return NodeAgents.endpoint(client, "cluster1", node);
    }
}
