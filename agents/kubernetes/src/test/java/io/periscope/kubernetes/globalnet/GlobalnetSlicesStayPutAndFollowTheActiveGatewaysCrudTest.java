package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.GlobalnetFixture.egress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code egress_ownership: per-gateway} over the life of a cluster: a GlobalEgressIP's slices are
 * its own while it and its gateways last (another object coming or going never moves them, since
 * its pods' connections are NATed to them), a gateway without a lease keeps its slice (in the
 * book and in status, so across a restart of the controller too) for as long as it can come back,
 * a gateway gone for good (node deleted or unlabelled) gives its slice back at once (not at the
 * controller's next restart), and a pool too small for every slice gives the object none and says
 * on the object what it needs in all.
 */
class GlobalnetSlicesStayPutAndFollowTheActiveGatewaysCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void mockCluster() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    /** A cluster of {@code gateways} active gateways owning their egress, on a pool of {@code globalCidr}. */
    private void perGatewayCluster(String globalCidr, int clusterEgressIPs, int gateways) {
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", globalCidr, true, clusterEgressIPs, Map.of());
        objects.perGatewayEgress("cluster1");
        for (int i = 1; i <= gateways; i++) {
            objects.node("gw-" + i, "172.18.0." + (5 + i), "10.0." + (i * 32) + ".0/19", true);
            objects.gateway("gw-" + i);
        }
        objects.node("worker-1", "172.18.0.20", "10.0.128.0/17", false);
    }

    @Test
    void aPoolTooSmallForEverySliceGivesTheObjectNoneAndSaysWhatItNeedsInAll() {
        // A /27: 30 addresses; 3 gateways of 8 cluster egress IPs and a global IP of its own each
        // (asked for after every object) leave 3, and the object needs 3 x 3.
        perGatewayCluster("242.254.1.0/27", 8, 3);
        objects.egress("ns1", "ns-egressip", 3, null);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertThatEventually("the object is told why it got nothing", () ->
                assertThat(egress(client, "ns1", "ns-egressip").flatMap(GlobalnetFixture::message).orElse(""))
                        .startsWith("GlobalEgressIP ns1/ns-egressip needs 9 global IPs, a slice of 3 for each of its 3 active"
                                + " gateways (gw-1, gw-2, gw-3), but the pool 242.254.1.0/27 has only 3 free (6 missing)"));
        GlobalEgressIPResource object = egress(client, "ns1", "ns-egressip").orElseThrow();
        Condition allocated = object.getStatus().conditions().stream().filter(c -> "Allocated".equals(c.getType())).findFirst().orElseThrow();
        assertThat(allocated.getStatus()).isEqualTo("False");
        assertThat(allocated.getReason()).isEqualTo("IPPoolAllocationFailed");
        assertThat(object.getStatus().allocatedIPs()).isEmpty();
        assertThat(object.getStatus().gatewaySlices()).isNull();

        // Nothing half-held: the 3 addresses left are free for an object that fits them exactly.
        objects.egress("ns2", "fits", 1, null);
        assertThatEventually("the next object gets the 3 addresses left", () ->
                assertThat(slices("ns2", "fits")).hasSize(3).allSatisfy(s -> assertThat(s.allocatedIPs()).hasSize(1)));
        assertThat(everyAllocatedAddress(client)).hasSize(30).doesNotHaveDuplicates();
    }

    @Test
    void slicesKeepTheirAddressesWhenAnOlderObjectGoesAway() throws Exception {
        perGatewayCluster("242.254.1.0/24", 8, 2);
        objects.egress("ns1", "a-older", 2, null);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("the older object has its slices", () -> assertThat(slices("ns1", "a-older")).hasSize(2));
        objects.egress("ns1", "b-younger", 2, null);
        assertThatEventually("the younger object has its slices", () -> assertThat(slices("ns1", "b-younger")).hasSize(2));
        List<AllocationStatus.GatewaySlice> before = slices("ns1", "b-younger");

        client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("a-older").delete();
        // A request after the deletion is served by a later pass, so by then the deletion has been seen.
        objects.egress("ns2", "c-later", 1, null);
        assertThatEventually("a later object is served", () -> assertThat(slices("ns2", "c-later")).hasSize(2));

        assertThat(slices("ns1", "b-younger")).as("the younger object's slices after the older one went").isEqualTo(before);
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(16 + 4 + 2 + 2);
    }

    @Test
    void aGatewayWithoutALeaseKeepsItsSliceAcrossARestartUntilItsNodeIsDeleted() {
        // A /28: 14 addresses. 3 cluster egress IPs (one per gateway, .14 to .12), slices of 2 (.1 to
        // .6), the gateways' own global IPs (.11 to .9): .7 and .8 left. When gw-3 loses its lease its
        // ClusterGlobalEgressIP goes (3 free) but its slice (2) and its Gateway's global IP stay: an
        // object needing 2 x 2 finds one block of 2, not two, until gw-3's node is deleted and its
        // slice (.5, .6) comes back.
        perGatewayCluster("242.254.1.0/28", 1, 3);
        for (int i = 1; i <= 3; i++) {
            gatewayLease("gw-" + i);
        }
        objects.egress("ns1", "ns-egressip", 2, null);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("a slice per active gateway", () ->
                assertThat(slices("ns1", "ns-egressip")).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2", "gw-3"));
        List<AllocationStatus.GatewaySlice> before = slices("ns1", "ns-egressip");

        client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE)
                .withName(LiveObjectsReader.gatewayLease(true, "gw-3")).delete();
        objects.egress("ns2", "needs-the-room", 2, null);
        assertThatEventually("with gw-3's lease gone, a new object's 2 slices do not fit beside gw-3's held one", () ->
                assertThat(egress(client, "ns2", "needs-the-room").flatMap(GlobalnetFixture::message).orElse(""))
                        .startsWith("GlobalEgressIP ns2/needs-the-room needs 4 global IPs, a slice of 2 for each of its 2 active gateways (gw-1, gw-2)"));
        assertThat(slices("ns1", "ns-egressip")).as("status keeps the slice held for the lease-less gateway").isEqualTo(before);

        controller.close();
        controller = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-1");
        objects.egress("ns3", "after-restart", 1, null);
        assertThatEventually("the restarted controller serves a request", () ->
                assertThat(slices("ns3", "after-restart")).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2"));
        assertThat(slices("ns1", "ns-egressip")).as("the held slice after a restart").isEqualTo(before);
        assertThat(egress(client, "ns2", "needs-the-room").flatMap(GlobalnetFixture::reason)).contains("IPPoolAllocationFailed");
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates();
        // Its two singles (.12 and .8) go back: .7, .8 and .12 free, still one block of 2.
        client.resources(GlobalEgressIPResource.class).inNamespace("ns3").withName("after-restart").delete();

        client.nodes().withName("gw-3").delete();
        assertThatEventually("a deleted gateway's slice is given back and serves the waiting object", () -> {
            assertThat(slices("ns1", "ns-egressip")).isEqualTo(before.subList(0, 2));
            assertThat(slices("ns2", "needs-the-room").stream().flatMap(s -> s.allocatedIPs().stream()))
                    .containsAnyElementsOf(before.get(2).allocatedIPs());
        });
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates();
    }

    @Test
    void anUnlabelledGatewayGivesBackItsSliceAndTheSurvivorsKeepTheirs() {
        // A /28: 14 addresses. 3 cluster egress IPs (one per gateway, from the top), slices of 2 from the
        // bottom (6), the gateways' own global IPs (3, from the top): 2 left. Only gw-3's slice, cluster
        // egress IP and global IP coming back make room for 2 x 2.
        perGatewayCluster("242.254.1.0/28", 1, 3);
        objects.egress("ns1", "ns-egressip", 2, null);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("a slice per active gateway", () ->
                assertThat(slices("ns1", "ns-egressip")).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2", "gw-3"));
        Map<String, List<String>> before = byGateway(slices("ns1", "ns-egressip"));

        // A JSON patch that carries no resourceVersion, as `kubectl label node gw-3 submariner.io/gateway-` sends:
        // the controller may be writing the node right now, and edit() would then fail with 409
        // Conflict on the version it read.
        client.nodes().withName("gw-3").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\": \"remove\", \"path\": \"/metadata/labels/" + SubmarinerApi.GATEWAY_LABEL.replace("/", "~1") + "\"}]");

        assertThatEventually("the departed gateway's slice is gone from status", () ->
                assertThat(slices("ns1", "ns-egressip")).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2"));
        assertThat(byGateway(slices("ns1", "ns-egressip"))).as("the survivors keep their slices")
                .isEqualTo(Map.of("gw-1", before.get("gw-1"), "gw-2", before.get("gw-2")));
        objects.egress("ns2", "needs-the-room", 2, null);
        assertThatEventually("the departed gateway's addresses serve a new object", () -> {
            assertThat(egress(client, "ns2", "needs-the-room").flatMap(GlobalnetFixture::reason)).contains("Success");
            assertThat(slices("ns2", "needs-the-room").stream().flatMap(s -> s.allocatedIPs().stream()))
                    .containsAnyElementsOf(before.get("gw-3"));
        });
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates();
    }

    /** A fresh lease held by the gateway's agent, as it renews one while it runs. */
    private void gatewayLease(String node) {
        client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).resource(new LeaseBuilder()
                .withNewMetadata().withName(LiveObjectsReader.gatewayLease(true, node)).endMetadata()
                .withNewSpec().withHolderIdentity(node).endSpec().build()).create();
    }

    private List<AllocationStatus.GatewaySlice> slices(String namespace, String name) {
        return egress(client, namespace, name).map(GlobalEgressIPResource::getStatus)
                .map(s -> s.gatewaySlices() == null ? List.<AllocationStatus.GatewaySlice>of() : s.gatewaySlices()).orElse(List.of());
    }

    private static Map<String, List<String>> byGateway(List<AllocationStatus.GatewaySlice> slices) {
        Map<String, List<String>> map = new HashMap<>();
        slices.forEach(s -> map.put(s.gateway(), s.allocatedIPs()));
        return map;
    }
}
