package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalnetAllocator;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalnetMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first Globalnet design on a live cluster ({@code globalnet_mode: legacy}): the controller
 * annotates exported services, pods and nodes with {@code submariner.io/globalIp}, with the
 * addresses the topology file's IPAM computes, keeps them across a restart and never gives one twice.
 */
class LegacyGlobalnetAnnotatesWithTheIpamsAddressesCrudTest {

    private static final String CIDR = "169.254.1.0/24";

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void legacyCluster() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        SubmarinerCluster west = new SubmarinerCluster();
        west.setMetadata(new ObjectMetaBuilder().withName("west").withNamespace(MockCluster.SUBMARINER_NAMESPACE).build());
        west.setSpec(new ClusterSpec("west", List.of(), List.of("10.244.0.0/16"), List.of("10.96.0.0/16"), List.of(CIDR), "kube-proxy",
                false, 8, null, "vxlan", "legacy"));
        client.resource(west).create();
        objects.node("west-gw", "172.18.2.2", "10.244.0.0/24", true);
        objects.node("west-worker", "172.18.2.3", "10.244.1.0/24", false);
        objects.pod("default", "nginx-0", "west-worker", "10.244.1.10", Map.of("app", "nginx"));
        objects.service("default", "nginx", "10.96.0.10", Map.of("app", "nginx"), 80);
        objects.service("default", "internal", "10.96.0.11", Map.of("app", "nginx"), 81);
        objects.export("default", "nginx");
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void everyPodNodeAndExportedServiceGetsTheAddressTheIpamComputes() {
        Cluster model = ClusterModelBuilder.build("west", List.of(LiveObjectsReader.read(client, MockCluster.SUBMARINER_NAMESPACE, "west")))
                .clusterSet().cluster("west").orElseThrow();
        ClusterGlobalnetAllocations ipam = GlobalnetAllocator.allocate(model, Ipv4Prefix.parse(CIDR), GlobalnetMode.LEGACY);

        controller = GlobalnetFixture.controller(cluster.newClient(), "west", "globalnet-0");

        assertThatEventually("the annotations", () -> {
            assertThat(annotation(client.services().inNamespace("default").withName("nginx").get())).contains("169.254.1.254");
            assertThat(annotation(client.pods().inNamespace("default").withName("nginx-0").get())).contains("169.254.1.253");
            assertThat(annotation(client.nodes().withName("west-gw").get())).contains("169.254.1.252");
            assertThat(annotation(client.nodes().withName("west-worker").get())).contains("169.254.1.251");
        });
        assertThat(ipam.legacyService("default", "nginx").orElseThrow().address().orElseThrow()).hasToString("169.254.1.254");
        assertThat(ipam.legacyPodIp("default", "nginx-0").orElseThrow()).hasToString("169.254.1.253");
        assertThat(ipam.legacyNodeIp("west-gw").orElseThrow()).hasToString("169.254.1.252");
        assertThat(ipam.legacyNodeIp("west-worker").orElseThrow()).hasToString("169.254.1.251");
        assertThat(annotation(client.services().inNamespace("default").withName("internal").get())).as("not exported").isEmpty();
    }

    @Test
    void anUnexportedServiceLosesItsAddressAndARestartKeepsEveryOther() {
        controller = GlobalnetFixture.controller(cluster.newClient(), "west", "globalnet-0");
        assertThatEventually("the pod is annotated", () ->
                assertThat(annotation(client.pods().inNamespace("default").withName("nginx-0").get())).contains("169.254.1.253"));

        client.resources(ServiceExportResource.class).inNamespace("default").withName("nginx").delete();
        assertThatEventually("the service's annotation is removed", () ->
                assertThat(annotation(client.services().inNamespace("default").withName("nginx").get())).isEmpty());

        controller.close();
        objects.pod("default", "nginx-1", "west-worker", "10.244.1.11", Map.of("app", "nginx"));
        controller = GlobalnetFixture.controller(cluster.newClient(), "west", "globalnet-1");

        assertThatEventually("the new pod gets an address nobody holds", () -> {
            assertThat(annotation(client.pods().inNamespace("default").withName("nginx-1").get())).isPresent();
            List<String> held = new ArrayList<>();
            client.pods().inAnyNamespace().list().getItems().forEach(p -> annotation(p).ifPresent(held::add));
            client.nodes().list().getItems().forEach(n -> annotation(n).ifPresent(held::add));
            client.services().inAnyNamespace().list().getItems().forEach(s -> annotation(s).ifPresent(held::add));
            assertThat(held).doesNotHaveDuplicates().hasSize(4);
        });
        assertThat(annotation(client.pods().inNamespace("default").withName("nginx-0").get())).contains("169.254.1.253");
        assertThat(annotation(client.nodes().withName("west-gw").get())).contains("169.254.1.252");
    }

    private static Optional<String> annotation(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return Optional.ofNullable(annotations == null ? null : annotations.get(SubmarinerApi.GLOBAL_IP_ANNOTATION));
    }
}
