package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPSpec;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static io.periscope.kubernetes.testing.GlobalnetFixture.clusterEgress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.egress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.gatewayGlobalIp;
import static io.periscope.kubernetes.testing.GlobalnetFixture.ingress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.reason;
import static org.assertj.core.api.Assertions.assertThat;

/** Seed 002's objects on a cluster with global CIDR 242.254.1.0/24, allocated as upstream's IPAM does. */
class GlobalnetAllocatesAddressesCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void clusterWithExportsAndEgressObjects() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.gateway("gw-1");
        objects.pod("default", "nginx-1", "worker-1", "10.0.128.5", Map.of("app", "nginx"));
        objects.pod("default", "db-0", "worker-1", "10.0.128.6", Map.of("app", "db"));
        objects.pod("default", "db-1", "worker-1", "10.0.128.7", Map.of("app", "db"));
        objects.pod("ns1", "client", "worker-1", "10.0.128.8", Map.of("role", "client"));
        objects.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        objects.service("default", "db", null, Map.of("app", "db"), 5432);
        objects.export("default", "nginx");
        objects.export("default", "db");
        objects.egress("ns1", "db-pods", 1, Map.of("role", "client"));
        objects.egress("ns1", "ns-egress", 2, null);
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void theClusterEgressComesFirstThenEgressObjectsThenIngressObjectsThenTheGateway() {
        controller = GlobalnetFixture_controller();

        assertThatEventually("the default ClusterGlobalEgressIP holds the lowest block of 8", () ->
                assertThat(clusterEgress(client, "cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs())
                        .containsExactly("242.254.1.1", "242.254.1.2", "242.254.1.3", "242.254.1.4",
                                "242.254.1.5", "242.254.1.6", "242.254.1.7", "242.254.1.8"));
        assertThatEventually("the namespace GlobalEgressIP holds the next block of 2", () ->
                assertThat(egress(client, "ns1", "ns-egress").orElseThrow().getStatus().allocatedIPs()).containsExactly("242.254.1.9", "242.254.1.10"));
        assertThatEventually("the pod-selector GlobalEgressIP's single address comes from the top", () ->
                assertThat(egress(client, "ns1", "db-pods").orElseThrow().getStatus().allocatedIPs()).containsExactly("242.254.1.254"));
        assertThatEventually("each export got its GlobalIngressIP with one address", () -> {
            GlobalIngressIPResource service = ingress(client, "default", "svc-nginx").orElseThrow();
            assertThat(service.getSpec().target()).isEqualTo(GlobalIngressIPSpec.CLUSTER_IP_SERVICE);
            assertThat(service.getSpec().serviceRef().getName()).isEqualTo("nginx");
            GlobalIngressIPResource pod = ingress(client, "default", "pod-db-1").orElseThrow();
            assertThat(pod.getSpec().target()).isEqualTo(GlobalIngressIPSpec.HEADLESS_SERVICE_POD);
            assertThat(pod.getSpec().podRef().getName()).isEqualTo("db-1");
            assertThat(pod.getSpec().serviceRef().getName()).isEqualTo("db");
            assertThat(List.of(service.getStatus().allocatedIP(), pod.getStatus().allocatedIP(),
                    ingress(client, "default", "pod-db-0").orElseThrow().getStatus().allocatedIP()))
                    .containsExactlyInAnyOrder("242.254.1.253", "242.254.1.252", "242.254.1.251");
        });
        assertThat(reason(clusterEgress(client, "cluster-egress.submariner.io").orElseThrow())).contains("Success");
        assertThat(reason(ingress(client, "default", "svc-nginx").orElseThrow())).contains("Success");
        // Upstream's Gateway controller's annotation: the gateway's own global IP, after every object as the topology file's IPAM gives it.
        assertThatEventually("the gateway has its own global IP on its Gateway object, the next single address", () ->
                assertThat(gatewayGlobalIp(client, "gw-1")).contains("242.254.1.250"));
        assertThat(client.nodes().withName("gw-1").get().getMetadata().getAnnotations()).doesNotContainKey("submariner.io/globalIp");
        assertThat(client.nodes().withName("worker-1").get().getMetadata().getAnnotations()).doesNotContainKey("submariner.io/globalIp");
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(15);
    }

    @Test
    void deletingAnObjectOrAnExportReturnsItsAddressesToThePool() {
        controller = GlobalnetFixture_controller();
        assertThatEventually("everything allocated", () -> assertThat(everyAllocatedAddress(client)).hasSize(15));

        client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("ns-egress").delete();
        client.resources(ServiceExportResource.class).inNamespace("default").withName("nginx").delete();
        await("svc-nginx is deleted with its export", () -> ingress(client, "default", "svc-nginx").isEmpty());

        objects.egress("ns2", "reuses-the-block", 2, null);
        objects.service("default", "web", "100.0.0.140", Map.of("app", "nginx"), 8080);
        objects.export("default", "web");
        assertThatEventually("the freed block goes to the next request for two", () ->
                assertThat(egress(client, "ns2", "reuses-the-block").orElseThrow().getStatus().allocatedIPs())
                        .containsExactly("242.254.1.9", "242.254.1.10"));
        assertThatEventually("the new export gets an address that is no one else's", () ->
                assertThat(ingress(client, "default", "svc-web").orElseThrow().getStatus().allocatedIP()).isNotNull());
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(15);
    }

    private GlobalnetController GlobalnetFixture_controller() {
        return io.periscope.kubernetes.testing.GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
    }
}
