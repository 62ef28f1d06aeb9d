package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPSpec;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPSpec;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.globalnet.AllocationCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.GlobalnetFixture.clusterEgress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.egress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.ingress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.reason;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every reason upstream writes on the {@code Allocated} condition, each caused the way a user (or a
 * restart) would cause it; a bad object gets its condition and the controller carries on with the rest.
 * The pool is a /28 (14 addresses) so that running out is easy.
 */
class GlobalnetAnswersEveryStatusReasonCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void smallCluster() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.9.0/28", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.gateway("gw-1");
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void badRequestsGetTheirReasonAndGoodOnesStillSucceed() {
        objects.egress("ns1", "zero", 0, null);
        objects.egress("ns1", "too-many", 21, null);
        objects.egress("ns1", "negative", -1, null);
        GlobalEgressIPResource badSelector = new GlobalEgressIPResource();
        badSelector.setMetadata(new ObjectMetaBuilder().withName("bad-selector").withNamespace("ns1").build());
        badSelector.setSpec(new GlobalEgressIPSpec(1, new LabelSelectorBuilder().addToMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey("app").withOperator("Near").withValues("db").build()).build()));
        client.resource(badSelector).create();
        objects.egress("ns1", "good", 1, null);
        objects.egress("ns1", "pool-too-small", 10, null);
        ClusterGlobalEgressIPResource second = new ClusterGlobalEgressIPResource();
        second.setMetadata(new ObjectMetaBuilder().withName("my-own-egress").build());
        second.setSpec(new ClusterGlobalEgressIPSpec(2, "cluster1"));
        client.resource(second).create();
        GlobalIngressIPResource handMade = new GlobalIngressIPResource();
        handMade.setMetadata(new ObjectMetaBuilder().withName("svc-hand-made").withNamespace("ns1").build());
        handMade.setSpec(new GlobalIngressIPSpec(GlobalIngressIPSpec.CLUSTER_IP_SERVICE, new LocalObjectReference("web"), null));
        client.resource(handMade).create();

        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertThatEventually("every object has its reason", () -> {
            assertThat(reason(clusterEgress(client, "cluster-egress.submariner.io").orElseThrow())).contains("Success");
            assertThat(reason(egress(client, "ns1", "good").orElseThrow())).contains("Success");
            assertThat(reason(egress(client, "ns1", "zero").orElseThrow())).contains("ZeroInput");
            assertThat(reason(egress(client, "ns1", "too-many").orElseThrow())).contains("InvalidInput");
            assertThat(reason(egress(client, "ns1", "negative").orElseThrow())).contains("InvalidInput");
            assertThat(reason(egress(client, "ns1", "bad-selector").orElseThrow())).contains("InvalidInput");
            assertThat(reason(egress(client, "ns1", "pool-too-small").orElseThrow())).contains("IPPoolAllocationFailed");
            assertThat(reason(clusterEgress(client, "my-own-egress").orElseThrow())).contains("InvalidInstance");
            assertThat(reason(ingress(client, "ns1", "svc-hand-made").orElseThrow())).contains("InvalidInstance");
        });
        GlobalEgressIPResource tooMany = egress(client, "ns1", "too-many").orElseThrow();
        assertThat(tooMany.getStatus().allocatedIPs()).isEmpty();
        assertThat(tooMany.getStatus().conditions().getFirst().getStatus()).isEqualTo("False");
        assertThat(tooMany.getStatus().conditions().getFirst().getMessage()).contains("21", "0..20");
        // 14 less the cluster's 8, good's 1 and the gateway's own global IP (on its Gateway), which it gets after them.
        assertThatEventually("the pool's shortfall as it stands", () ->
                assertThat(egress(client, "ns1", "pool-too-small").orElseThrow().getStatus().conditions().getFirst().getMessage())
                        .contains("asked for 10", "4 free"));
        assertThat(egress(client, "ns1", "bad-selector").orElseThrow().getStatus().conditions().getFirst().getMessage()).contains("Near");
        assertThat(clusterEgress(client, "my-own-egress").orElseThrow().getStatus().conditions().getFirst().getMessage())
                .contains("cluster-egress.submariner.io");
        // The controller is still working: a fixed request is answered.
        // A merge patch of the spec alone, as `kubectl patch --type merge` sends: the controller may be writing
        // the object's status right now, and edit() would then fail with 409 Conflict on the version it read.
        client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("too-many")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"numberOfIPs\": 2}}");
        assertThatEventually("the corrected object is allocated", () ->
                assertThat(egress(client, "ns1", "too-many").orElseThrow().getStatus().allocatedIPs()).hasSize(2));
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(8 + 1 + 2 + 1);
    }

    @Test
    void addressesThatCannotBeTakenBackAfterARestartAreReportedAndReplaced() {
        // As left by an earlier controller with the double-allocation bug (submariner#4122): two
        // objects claim 242.254.9.14, and a third claims an address outside the pool.
        GlobalEgressIPResource older = objects.egress("ns1", "a-older", 1, null);
        GlobalEgressIPResource younger = objects.egress("ns1", "b-younger", 1, null);
        GlobalEgressIPResource outside = objects.egress("ns1", "c-outside", 1, null);
        writeStatus(older, "242.254.9.14");
        writeStatus(younger, "242.254.9.14");
        writeStatus(outside, "10.9.9.9");
        List<String> reasonsSeen = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("b-younger").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GlobalEgressIPResource resource) {
                reason(resource).ifPresent(reasonsSeen::add);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

            assertThatEventually("the younger claimant and the outsider got new addresses", () -> {
                assertThat(egress(client, "ns1", "a-older").orElseThrow().getStatus().allocatedIPs()).containsExactly("242.254.9.14");
                assertThat(reason(egress(client, "ns1", "b-younger").orElseThrow())).contains("Success");
                assertThat(reason(egress(client, "ns1", "c-outside").orElseThrow())).contains("Success");
                assertThat(reasonsSeen).contains("ReserveAllocatedIPsFailed");
                assertThat(reasonsSeen.subList(reasonsSeen.indexOf("ReserveAllocatedIPsFailed"), reasonsSeen.size())).contains("Success");
            });
        }
        assertThat(egress(client, "ns1", "b-younger").orElseThrow().getStatus().allocatedIPs()).doesNotContain("242.254.9.14").hasSize(1);
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().allMatch(a -> a.startsWith("242.254.9."));
    }

    private void writeStatus(GlobalEgressIPResource object, String address) {
        object.setStatus(new AllocationStatus(List.of(GlobalnetPass.condition(
                AllocationCondition.success("allocated 1 global IP: " + address), java.time.Instant.now())),
                List.of(address)));
        client.resource(object).updateStatus();
    }
}
