package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.gatewayGlobalIp;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream (0.18 on) keeps a gateway's health-check global IP in the {@code submariner.io/globalIp}
 * annotation of its Gateway object, not of its node ({@code gateway_controller.go}): the Globalnet
 * controller gives the active gateway's Gateway one, a Gateway keeps it when its gateway stops being
 * active, and the gateway that takes the lease gets one of its own.
 */
class EachGatewayKeepsItsOwnHealthCheckGlobalIpCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void clusterWithTwoGateways() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.gateway("gw-1");
        objects.gateway("gw-2");
        lease("gw-1");
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void theActiveGatewaysGatewayObjectHoldsItAndTheStandbysHoldsNone() {
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertThatEventually("gw-1's Gateway has the top address", () -> assertThat(gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254"));
        assertThat(gatewayGlobalIp(client, "gw-2")).isEmpty();
        assertThat(client.nodes().withName("gw-1").get().getMetadata().getAnnotations()).doesNotContainKey(SubmarinerApi.GLOBAL_IP_ANNOTATION);
    }

    @Test
    void failoverGivesTheNewGatewayAnAddressOfItsOwnAndTheOldOneKeepsIts() {
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("gw-1's Gateway has the top address", () -> assertThat(gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254"));

        lease("gw-2");

        assertThatEventually("gw-2's Gateway has the next address down", () -> assertThat(gatewayGlobalIp(client, "gw-2")).contains("242.254.1.253"));
        assertThat(gatewayGlobalIp(client, "gw-1")).as("gw-1 keeps its own while its Gateway stands").contains("242.254.1.254");
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(8 + 2);
    }

    @Test
    void aGatewayWhoseNodeIsNoGatewayAnyMoreLosesItsAddress() {
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("gw-1's Gateway has the top address", () -> assertThat(gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254"));
        lease("gw-2");
        assertThatEventually("gw-2's Gateway has its own", () -> assertThat(gatewayGlobalIp(client, "gw-2")).contains("242.254.1.253"));

        client.nodes().withName("gw-1").edit(n -> {
            n.getMetadata().setLabels(Map.of());
            return n;
        });

        assertThatEventually("gw-1's Gateway lost it", () -> assertThat(gatewayGlobalIp(client, "gw-1")).isEmpty());
        assertThat(gatewayGlobalIp(client, "gw-2")).contains("242.254.1.253");
    }

    @Test
    void anAnnotationANodeKeptBeforeUpstream018IsCleared() {
        client.nodes().withName("gw-1").edit(n -> {
            Map<String, String> annotations = new HashMap<>();
            annotations.put(SubmarinerApi.GLOBAL_IP_ANNOTATION, "242.254.1.200");
            n.getMetadata().setAnnotations(annotations);
            return n;
        });

        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertThatEventually("the node's annotation is gone and the Gateway has one", () -> {
            assertThat(client.nodes().withName("gw-1").get().getMetadata().getAnnotations()).doesNotContainKey(SubmarinerApi.GLOBAL_IP_ANNOTATION);
            assertThat(gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254");
        });
    }

    /** The single active gateway's lease, held by {@code node} (no renew time: fresh). */
    private void lease(String node) {
        var existing = client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(LiveObjectsReader.GATEWAY_LEASE);
        if (existing.get() == null) {
            client.resource(new LeaseBuilder().withNewMetadata().withName(LiveObjectsReader.GATEWAY_LEASE)
                    .withNamespace(MockCluster.SUBMARINER_NAMESPACE).endMetadata().withNewSpec().withHolderIdentity(node).endSpec().build()).create();
        } else {
            existing.edit(l -> {
                l.getSpec().setHolderIdentity(node);
                return l;
            });
        }
    }
}
