package io.periscope.kinde2e;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPSpec;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPSpec;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seed 002's user stories on a real API server: deploy/ applied to a kind cluster (CRDs, RBAC, the
 * admission policy, the Globalnet Deployment and the agents' DaemonSets running Periscope's image),
 * then each story checked through the objects' status. Needs a Docker engine; without one every
 * test is skipped with that message.
 */
class GlobalnetScenariosOnKind {

    private static final String NEEDS_DOCKER = "needs a Docker engine (kindcontainer runs kind in a container, and the agents' "
            + "image is built from deploy/Containerfile); none is reachable here, so the kind end-to-end tests are skipped";

    private static boolean docker;
    private static KindCluster kind;
    private static KubernetesClient client;

    @BeforeAll
    static void deployIntoKind() throws Exception {
        docker = dockerAvailable();
        if (!docker) {
            System.err.println("GlobalnetScenariosOnKind: " + NEEDS_DOCKER);
            return;
        }
        kind = new KindCluster();
        client = kind.client();
        client.nodes().list().getItems().forEach(n -> client.nodes().withName(n.getMetadata().getName())
                .edit(node -> {
                    node.getMetadata().getLabels().put(SubmarinerApi.GATEWAY_LABEL, "true");
                    return node;
                }));
        kind.apply("namespace.yaml");
        for (String crd : List.of("clusterconnectionpolicies.submariner.io-v1.yml", "clusterconnectivitypolicies.submariner.io-v1.yml",
                "clusterglobalegressips.submariner.io-v1.yml", "clusters.submariner.io-v1.yml", "endpoints.submariner.io-v1.yml",
                "gateways.submariner.io-v1.yml", "globalegressips.submariner.io-v1.yml", "globalingressips.submariner.io-v1.yml",
                "serviceexports.multicluster.x-k8s.io-v1.yml")) {
            kind.apply("crds/" + crd);
        }
        kind.apply("config.yaml");
        kind.apply("rbac.yaml");
        kind.apply("admission.yaml");
        kind.apply("cluster.yaml", "10.244.0.0/16", KindCluster.POD_SUBNET, "10.96.0.0/16", KindCluster.SERVICE_SUBNET);
        kind.apply("globalnet.yaml");
        kind.apply("gateway.yaml");
        kind.apply("route-agent.yaml");
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ns1").endMetadata().build()).create();
    }

    /** Per test, so that each one is reported as skipped with the reason. */
    @BeforeEach
    void requireDocker() {
        Assumptions.assumeTrue(docker, NEEDS_DOCKER);
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @AfterAll
    static void stop() {
        if (kind != null) {
            kind.close();
        }
    }

    @Test
    void byDefaultTheClusterGetsItsEgressAddresses() {
        eventually("cluster-egress.submariner.io allocated", () -> {
            ClusterGlobalEgressIPResource egress = client.resources(ClusterGlobalEgressIPResource.class).withName("cluster-egress.submariner.io").get();
            return egress != null && egress.getStatus() != null && egress.getStatus().allocatedIPs().size() == 8;
        });
    }

    @Test
    void aNamespaceAndSelectedPodsGetTheirOwnEgressAddresses() {
        GlobalEgressIPResource namespace = egress("ns-egressip", 1, null);
        GlobalEgressIPResource pods = egress("db-pods", 2, Map.of("role", "db"));
        client.resource(namespace).create();
        client.resource(pods).create();
        eventually("both allocated", () -> allocated("ns-egressip") == 1 && allocated("db-pods") == 2);
    }

    @Test
    void anExportedServiceAndEachPodOfAnExportedHeadlessServiceGetAnIngressAddress() {
        client.resource(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("ns1").withLabels(Map.of("app", "web")).endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage(KindCluster.IMAGE).withCommand("sleep", "3600").endContainer().endSpec()
                .build()).create();
        client.resource(new ServiceBuilder().withNewMetadata().withName("nginx").withNamespace("ns1").endMetadata().withNewSpec()
                .withSelector(Map.of("app", "web")).addNewPort().withPort(80).withTargetPort(new IntOrString(80)).endPort().endSpec().build()).create();
        client.resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("ns1").endMetadata().withNewSpec()
                .withClusterIP("None").withSelector(Map.of("app", "web")).addNewPort().withPort(80).endPort().endSpec().build()).create();
        export("nginx");
        export("web");
        eventually("svc-nginx and pod-web-0 have addresses", () -> ingressAddress("svc-nginx") != null && ingressAddress("pod-web-0") != null);
        assertThat(ingressAddress("svc-nginx")).isNotEqualTo(ingressAddress("pod-web-0"));
    }

    @Test
    void namespaceUsersMayCreateEgressObjectsButNotClusterEgressOrIngressObjects() {
        client.resource(new RoleBindingBuilder().withNewMetadata().withName("alice-edit").withNamespace("ns1").endMetadata()
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName("edit").endRoleRef()
                .addNewSubject().withKind("User").withName("alice").withApiGroup("rbac.authorization.k8s.io").endSubject().build()).create();
        try (KubernetesClient alice = kind.as("alice")) {
            alice.resource(egress("alices-egress", 1, null)).create();
            ClusterGlobalEgressIPResource cluster = new ClusterGlobalEgressIPResource();
            cluster.setMetadata(new ObjectMetaBuilder().withName("alices-cluster-egress").build());
            cluster.setSpec(new ClusterGlobalEgressIPSpec(1, null));
            assertThatThrownBy(() -> alice.resource(cluster).create()).isInstanceOf(KubernetesClientException.class)
                    .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
            assertThatThrownBy(() -> alice.resource(ingress("svc-alice")).create()).isInstanceOf(KubernetesClientException.class)
                    .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
        }
        // Even cluster-admin is refused by the admission policy: only the controller creates GlobalIngressIPs.
        assertThatThrownBy(() -> client.resource(ingress("svc-admin")).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("Globalnet controller");
    }

    private static GlobalEgressIPResource egress(String name, int n, Map<String, String> selector) {
        GlobalEgressIPResource egress = new GlobalEgressIPResource();
        egress.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns1").build());
        egress.setSpec(new GlobalEgressIPSpec(n, selector == null ? null : new LabelSelectorBuilder().withMatchLabels(selector).build()));
        return egress;
    }

    private static GlobalIngressIPResource ingress(String name) {
        GlobalIngressIPResource ingress = new GlobalIngressIPResource();
        ingress.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns1").build());
        ingress.setSpec(new GlobalIngressIPSpec(GlobalIngressIPSpec.CLUSTER_IP_SERVICE, new LocalObjectReference("nginx"), null));
        return ingress;
    }

    private static void export(String service) {
        ServiceExportResource export = new ServiceExportResource();
        export.setMetadata(new ObjectMetaBuilder().withName(service).withNamespace("ns1").build());
        client.resource(export).create();
    }

    private static int allocated(String name) {
        GlobalEgressIPResource object = client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName(name).get();
        return object == null || object.getStatus() == null ? 0 : object.getStatus().allocatedIPs().size();
    }

    private static String ingressAddress(String name) {
        GlobalIngressIPResource object = client.resources(GlobalIngressIPResource.class).inNamespace("ns1").withName(name).get();
        return object == null || object.getStatus() == null ? null : object.getStatus().allocatedIP();
    }

    private static void eventually(String what, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (Boolean.TRUE.equals(condition.get())) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
