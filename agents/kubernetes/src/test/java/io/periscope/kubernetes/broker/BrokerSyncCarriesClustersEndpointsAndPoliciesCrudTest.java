package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicySpec;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/** Two member clusters and a broker, each its own mock API server; each cluster runs a broker sync. */
class BrokerSyncCarriesClustersEndpointsAndPoliciesCrudTest {

    private static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    private static final String NS = MockCluster.SUBMARINER_NAMESPACE;

    private MockCluster brokerApi;
    private MockCluster cluster1Api;
    private MockCluster cluster2Api;
    private BrokerSync sync1;
    private BrokerSync sync2;

    @BeforeEach
    void threeApis() {
        brokerApi = new MockCluster();
        cluster1Api = new MockCluster();
        cluster2Api = new MockCluster();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);
        new LiveObjectsFactory(cluster1Api.client()).cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8,
                Map.of("location", "on-premise"));
        new LiveObjectsFactory(cluster2Api.client()).cluster("cluster2", "10.0.0.0/16", "100.0.0.0/16", "242.254.2.0/24", false, 8,
                Map.of("location", "cloud"));
        endpoint(cluster1Api.client(), "cluster1", "gw-1", "172.18.0.6");
        endpoint(cluster2Api.client(), "cluster2", "gw-3", "172.18.0.4");
        sync1 = new BrokerSync(cluster1Api.newClient(), brokerApi.newClient(), new BrokerSyncSettings("cluster1", NS, BROKER_NAMESPACE, Duration.ofSeconds(2))).start();
        sync2 = new BrokerSync(cluster2Api.newClient(), brokerApi.newClient(), new BrokerSyncSettings("cluster2", NS, BROKER_NAMESPACE, Duration.ofSeconds(2))).start();
    }

    @AfterEach
    void stop() {
        sync1.close();
        sync2.close();
        brokerApi.close();
        cluster1Api.close();
        cluster2Api.close();
    }

    @Test
    void eachClusterGetsTheOthersClusterAndEndpointsAndThePolicies() {
        ClusterConnectivityPolicyResource policy = new ClusterConnectivityPolicyResource();
        policy.setMetadata(new ObjectMetaBuilder().withName("on-premise-to-cloud").withNamespace(BROKER_NAMESPACE).build());
        policy.setSpec(new ClusterConnectivityPolicySpec(new LabelSelectorBuilder().withMatchLabels(Map.of("location", "on-premise")).build(),
                new LabelSelectorBuilder().withMatchLabels(Map.of("location", "cloud")).build()));
        brokerApi.client().resource(policy).create();

        assertThatEventually("cluster1 holds cluster2's objects as broker copies, and the policy", () -> {
            SubmarinerCluster copy = cluster1Api.client().resources(SubmarinerCluster.class).inNamespace(NS).withName("cluster2").get();
            assertThat(copy.getSpec().globalCidr()).containsExactly("242.254.2.0/24");
            assertThat(copy.getMetadata().getLabels()).containsEntry("location", "cloud").containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
            SubmarinerEndpoint endpoint = cluster1Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS)
                    .withName("cluster2-submariner-cable-cluster2-gw-3").get();
            assertThat(endpoint.getSpec().privateIp()).isEqualTo("172.18.0.4");
            assertThat(cluster1Api.client().resources(ClusterConnectivityPolicyResource.class).inNamespace(NS).withName("on-premise-to-cloud").get()
                    .getSpec().leftClusterSelector().getMatchLabels()).containsEntry("location", "on-premise");
        });
        assertThatEventually("cluster2 holds cluster1's", () ->
                assertThat(cluster2Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS)
                        .withName("cluster1-submariner-cable-cluster1-gw-1").get()).isNotNull());
        // A cluster's own objects are never overwritten by copies of themselves.
        assertThat(cluster1Api.client().resources(SubmarinerCluster.class).inNamespace(NS).withName("cluster1").get().getMetadata().getLabels())
                .doesNotContainKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
        assertThat(brokerApi.client().resources(SubmarinerEndpoint.class).inNamespace(BROKER_NAMESPACE).list().getItems()).hasSize(2);
    }

    @Test
    void aDeletedEndpointDisappearsFromTheBrokerAndFromTheOtherCluster() {
        assertThatEventually("cluster1 sees gw-3", () -> assertThat(cluster1Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS)
                .withName("cluster2-submariner-cable-cluster2-gw-3").get()).isNotNull());

        cluster2Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS).withName("cluster2-submariner-cable-cluster2-gw-3").delete();

        assertThatEventually("the copies are gone", () -> {
            assertThat(brokerApi.client().resources(SubmarinerEndpoint.class).inNamespace(BROKER_NAMESPACE)
                    .withName("cluster2-submariner-cable-cluster2-gw-3").get()).isNull();
            assertThat(cluster1Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS)
                    .withName("cluster2-submariner-cable-cluster2-gw-3").get()).isNull();
        });
        assertThat(cluster1Api.client().resources(SubmarinerEndpoint.class).inNamespace(NS)
                .withName("cluster1-submariner-cable-cluster1-gw-1").get()).isNotNull();
    }

    private static void endpoint(KubernetesClient client, String cluster, String gateway, String ip) {
        SubmarinerEndpoint endpoint = new SubmarinerEndpoint();
        endpoint.setMetadata(new ObjectMetaBuilder().withName(cluster + "-submariner-cable-" + cluster + "-" + gateway).withNamespace(NS).build());
        endpoint.setSpec(new EndpointSpec(cluster, "submariner-cable-" + cluster + "-" + ip.replace('.', '-'), null, gateway,
                List.of(cluster.equals("cluster1") ? "242.254.1.0/24" : "242.254.2.0/24"), ip, ip, false, "vxlan", Map.of(), List.of()));
        client.resource(endpoint).create();
    }
}
