package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.CableDriverField;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectionPoliciesSpec;
import io.periscope.kubernetes.crd.ConnectionPolicy;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.modelbuilder.ModelProblem;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.topology.CableDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 001: "The ClusterConnectionPolicies CR would be a singleton with a well-known name and would
 * be maintained on the broker cluster and synced to each participating cluster." A broker and one
 * member cluster, each a mock API server; the cluster runs its broker sync.
 */
class OnlyTheWellKnownConnectionPoliciesIsSyncedAndReadCrudTest {

    private static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    private static final String NS = MockCluster.SUBMARINER_NAMESPACE;

    private MockCluster brokerApi;
    private MockCluster clusterApi;
    private BrokerSync sync;

    @BeforeEach
    void brokerAndCluster() {
        brokerApi = new MockCluster();
        clusterApi = new MockCluster();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);
        new LiveObjectsFactory(clusterApi.client()).cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", null, false, 8,
                Map.of("location", "on-premise"));
    }

    @AfterEach
    void stop() {
        if (sync != null) {
            sync.close();
        }
        brokerApi.close();
        clusterApi.close();
    }

    @Test
    void theWellKnownObjectIsSyncedAndReadAndAnyOtherIsIgnoredAndToldWhy() {
        policies(brokerApi.client(), BROKER_NAMESPACE, ClusterConnectionPolicies.WELL_KNOWN_NAME, "vxlan");
        policies(brokerApi.client(), BROKER_NAMESPACE, "extra-policies", "wireguard");
        policies(clusterApi.client(), NS, "my-local-policies", "libreswan");
        sync = new BrokerSync(clusterApi.newClient(), brokerApi.newClient(),
                new BrokerSyncSettings("cluster1", NS, BROKER_NAMESPACE, Duration.ofSeconds(2))).start();

        assertThatEventually("the singleton is synced and the others are told why they are ignored", () -> {
            ClusterConnectionPolicies copy = local(ClusterConnectionPolicies.WELL_KNOWN_NAME);
            assertThat(copy).isNotNull();
            assertThat(copy.getMetadata().getLabels()).containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
            assertThat(copy.getSpec().policies()).extracting(p -> p.cableDriver().name()).containsExactly("vxlan");
            assertIgnored(brokerApi.client().resources(ClusterConnectionPolicies.class).inNamespace(BROKER_NAMESPACE)
                    .withName("extra-policies").get());
            assertIgnored(local("my-local-policies"));
        });
        assertThat(local("extra-policies")).as("an object of another name is not synced").isNull();
        ClusterConnectionPolicies wellKnown = brokerApi.client().resources(ClusterConnectionPolicies.class).inNamespace(BROKER_NAMESPACE)
                .withName(ClusterConnectionPolicies.WELL_KNOWN_NAME).get();
        assertThat(wellKnown.getStatus()).as("the singleton is not reported").isNull();

        LiveModel model = ClusterModelBuilder.build("set", List.of(LiveObjectsReader.read(clusterApi.client(), NS, "cluster1")));
        assertThat(model.clusterSet().connectionPolicies()).as("only the singleton's policies apply")
                .extracting(p -> p.cableDriver().name()).containsExactly(CableDriver.VXLAN);
        assertThat(model.problems()).extracting(ModelProblem::object).contains("ClusterConnectionPolicies " + NS + "/my-local-policies");
    }

    @Test
    void aCopyOfAnObjectThatIsNotTheSingletonIsRemoved() {
        // What an older sync copied, when any name was carried down.
        ClusterConnectionPolicies stale = policies(clusterApi.client(), NS, "extra-policies", "wireguard");
        clusterApi.client().resources(ClusterConnectionPolicies.class).inNamespace(NS).withName(stale.getMetadata().getName()).edit(p -> {
            p.getMetadata().setLabels(Map.of(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true"));
            return p;
        });
        policies(brokerApi.client(), BROKER_NAMESPACE, "extra-policies", "wireguard");
        sync = new BrokerSync(clusterApi.newClient(), brokerApi.newClient(),
                new BrokerSyncSettings("cluster1", NS, BROKER_NAMESPACE, Duration.ofSeconds(2))).start();

        assertThatEventually("the stale copy is gone", () -> assertThat(local("extra-policies")).isNull());
    }

    private static void assertIgnored(ClusterConnectionPolicies object) {
        assertThat(object).isNotNull();
        assertThat(object.getStatus()).as(object.getMetadata().getName() + " has a status").isNotNull();
        Condition accepted = object.getStatus().conditions().stream().filter(c -> SubmarinerApi.ACCEPTED_CONDITION.equals(c.getType()))
                .findFirst().orElseThrow(() -> new AssertionError(object.getMetadata().getName() + " has no Accepted condition"));
        assertThat(accepted.getStatus()).isEqualTo("False");
        assertThat(accepted.getReason()).isEqualTo("NotTheWellKnownName");
        assertThat(accepted.getMessage()).contains("'" + ClusterConnectionPolicies.WELL_KNOWN_NAME + "'", object.getMetadata().getName());
    }

    private ClusterConnectionPolicies local(String name) {
        return clusterApi.client().resources(ClusterConnectionPolicies.class).inNamespace(NS).withName(name).get();
    }

    private static ClusterConnectionPolicies policies(KubernetesClient client, String namespace, String name, String driver) {
        ClusterConnectionPolicies object = new ClusterConnectionPolicies();
        object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        object.setSpec(new ClusterConnectionPoliciesSpec(List.of(new ConnectionPolicy(
                new LabelSelectorBuilder().withMatchLabels(Map.of("location", "on-premise")).build(),
                new LabelSelectorBuilder().withMatchLabels(Map.of("location", "on-premise")).build(),
                new CableDriverField(driver, Map.of())))));
        return client.resource(object).create();
    }
}
