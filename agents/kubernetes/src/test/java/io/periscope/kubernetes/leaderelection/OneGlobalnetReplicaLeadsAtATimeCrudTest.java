package io.periscope.kubernetes.leaderelection;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.globalnet.GlobalnetSettings;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.ingress;
import static org.assertj.core.api.Assertions.assertThat;

/** Two Globalnet replicas (as during a rollout): one allocates, the other waits and takes over when the first goes. */
class OneGlobalnetReplicaLeadsAtATimeCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController first;
    private GlobalnetController second;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.gateway("gw-1");
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
        cluster.close();
    }

    @Test
    void theStandbyTakesOverWhenTheLeaderStopsAndKeepsEveryAllocation() {
        first = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-a");
        await("the first replica leads", first::leading);
        second = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-b");
        // The gateway is there first and takes the top address (its own global IP); the export comes later.
        assertThatEventually("the gateway has its own global IP", () ->
                assertThat(GlobalnetFixture.gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254"));
        objects.service("default", "web", "100.0.0.10", Map.of("app", "web"), 80);
        objects.export("default", "web");
        assertThatEventually("the leader allocated", () -> assertThat(ingress(client, "default", "svc-web").orElseThrow().getStatus().allocatedIP())
                .isEqualTo("242.254.1.253"));
        assertThat(second.leading()).isFalse();
        assertThat(second.passes()).isZero();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("globalnet-a");

        first.close();
        await("the standby leads", second::leading);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("globalnet-b");
        objects.service("default", "api", "100.0.0.11", Map.of("app", "api"), 80);
        objects.export("default", "api");
        assertThatEventually("the new leader allocates the next address", () ->
                assertThat(ingress(client, "default", "svc-api").orElseThrow().getStatus().allocatedIP()).isEqualTo("242.254.1.252"));
        assertThat(ingress(client, "default", "svc-web").orElseThrow().getStatus().allocatedIP()).isEqualTo("242.254.1.253");
        assertThat(GlobalnetFixture.gatewayGlobalIp(client, "gw-1")).contains("242.254.1.254");
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(11);
    }

    private Lease lease() {
        return client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(GlobalnetSettings.LEASE).get();
    }
}
