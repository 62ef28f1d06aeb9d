package io.periscope.cli;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code periscope snapshot} against a mock API server reached through a kubeconfig, as a user would run it. */
class SnapshotWritesATopologyFileFromALiveCluster {

    private KubernetesMockServer server;
    private KubernetesClient client;
    @TempDir
    Path dir;

    @BeforeEach
    void clusterWithOneGateway() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        for (String crd : List.of("clusters.submariner.io-v1.yml", "serviceexports.multicluster.x-k8s.io-v1.yml")) {
            try (InputStream in = getClass().getResourceAsStream("/META-INF/fabric8/" + crd)) {
                client.apiextensions().v1().customResourceDefinitions()
                        .resource(client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
            }
        }
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("submariner-operator").endMetadata().build()).create();
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("kind1").withNamespace("submariner-operator").withLabels(Map.of("site", "lab")).build());
        cluster.setSpec(new ClusterSpec("kind1", List.of(), List.of("10.244.0.0/16"), List.of("10.96.0.0/16"), List.of(), "kube-proxy",
                false, 8, null, "vxlan"));
        client.resource(cluster).create();
        client.resource(new NodeBuilder().withNewMetadata().withName("kind1-worker").withLabels(Map.of(SubmarinerApi.GATEWAY_LABEL, "true"))
                .endMetadata().withNewSpec().withPodCIDR("10.244.1.0/24").endSpec()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("172.18.0.3").endAddress().endStatus().build()).create();
        Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: kind1
                    cluster: {server: "%s"}
                contexts:
                  - name: kind-kind1
                    context: {cluster: kind1, user: admin}
                current-context: kind-kind1
                users:
                  - name: admin
                    user: {token: secret}
                """.formatted(client.getConfiguration().getMasterUrl()));
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    @Test
    void theSnapshotLoadsAsATopologyWithTheLiveClustersGateway() throws Exception {
        Path out = dir.resolve("live.yaml");
        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", dir.resolve("kubeconfig").toString(), "--context", "kind-kind1",
                "-o", out.toString());

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).contains("wrote " + out);
        ClusterSet set;
        try {
            set = TopologyLoader.load(out);
        } catch (io.periscope.model.load.TopologyException e) {
            throw new AssertionError(e.report() + Files.readString(out), e);
        }
        assertThat(set.requireCluster("kind1").gateways()).singleElement().satisfies(n -> {
            assertThat(n.name()).isEqualTo("kind1-worker");
            assertThat(n.cniIp()).hasToString("10.244.1.1");
        });
        assertThat(set.requireCluster("kind1").labels()).containsEntry("site", "lab");
        assertThat(PeriscopeRun.of("check", out.toString()).status()).isZero();
    }

    @Test
    void anUnknownContextIsABadArgumentWithoutAStackTrace() {
        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", dir.resolve("kubeconfig").toString(), "--context", "nope", "-o", "-");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("nope").doesNotContain("\tat ");
    }
}
