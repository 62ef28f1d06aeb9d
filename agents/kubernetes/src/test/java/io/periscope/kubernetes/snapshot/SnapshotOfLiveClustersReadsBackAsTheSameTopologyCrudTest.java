package io.periscope.kubernetes.snapshot;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicySpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two live clusters read into a topology file that the loader accepts and that plans like the live model. */
class SnapshotOfLiveClustersReadsBackAsTheSameTopologyCrudTest {

    private MockCluster cluster1;
    private MockCluster cluster2;

    @BeforeEach
    void twoClusters() {
        cluster1 = new MockCluster();
        cluster2 = new MockCluster();
        LiveObjectsFactory one = new LiveObjectsFactory(cluster1.client());
        one.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", true, 8, Map.of("location", "on-premise"));
        one.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        io.fabric8.kubernetes.api.model.Node gw2 = one.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        // Upstream's per-node forced MSS: the snapshot carries it as the node's tcpClampMss.
        gw2.getMetadata().setAnnotations(Map.of("submariner.io/tcp-clamp-mss", "1300"));
        cluster1.client().resource(gw2).update();
        one.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        one.pod("default", "client", "worker-1", "10.0.128.4", Map.of("app", "client"));
        one.egress("default", "client-egress", 2, Map.of("app", "client"));
        // A broker copy of cluster2's Cluster object: the snapshot must not take it for cluster1's own.
        SubmarinerCluster copy = one.cluster("cluster2", "10.0.0.0/16", "100.0.0.0/16", "242.254.2.0/24", true, 8, Map.of("location", "cloud"));
        copy.getMetadata().setLabels(Map.of("location", "cloud", SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true"));
        cluster1.client().resource(copy).update();
        ClusterConnectivityPolicyResource policy = new ClusterConnectivityPolicyResource();
        policy.setMetadata(new ObjectMetaBuilder().withName("premise-to-cloud").withNamespace(MockCluster.SUBMARINER_NAMESPACE).build());
        policy.setSpec(new ClusterConnectivityPolicySpec(new LabelSelectorBuilder().withMatchLabels(Map.of("location", "on-premise")).build(),
                new LabelSelectorBuilder().withMatchLabels(Map.of("location", "cloud")).build()));
        cluster1.client().resource(policy).create();

        LiveObjectsFactory two = new LiveObjectsFactory(cluster2.client());
        two.cluster("cluster2", "10.0.0.0/16", "100.0.0.0/16", "242.254.2.0/24", true, 8, Map.of("location", "cloud"));
        two.node("gw-3", "172.18.0.4", "10.0.0.0/18", true);
        two.node("worker-2", "172.18.0.12", "10.0.128.0/17", false);
        two.pod("default", "nginx-7d4f", "worker-2", "10.0.128.5", Map.of("app", "nginx"));
        two.pod("default", "db-0", "worker-2", "10.0.128.6", Map.of("app", "db"));
        io.fabric8.kubernetes.api.model.Service nginx = two.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        // A named port: DNS SRV names are made of it, so the snapshot must carry it.
        nginx.getSpec().getPorts().getFirst().setName("http");
        cluster2.client().resource(nginx).update();
        two.service("default", "db", null, Map.of("app", "db"), 5432);
        two.export("default", "nginx");
        two.export("default", "db");
    }

    @AfterEach
    void stop() {
        cluster1.close();
        cluster2.close();
    }

    @Test
    void theWrittenFileLoadsAsTheClusterSetThatWasRead() throws Exception {
        LiveModel live = LiveSnapshot.read("live", List.of(
                new LiveSnapshot.Source("kind-cluster1", cluster1.client(), MockCluster.SUBMARINER_NAMESPACE),
                new LiveSnapshot.Source("kind-cluster2", cluster2.client(), MockCluster.SUBMARINER_NAMESPACE)));
        assertThat(live.problems()).isEmpty();

        String file = TopologyWriter.write(live.clusterSet(), "snapshot of kind-cluster1, kind-cluster2");
        ClusterSet loaded = TopologyLoader.parse(file, "snapshot.yaml");

        assertThat(loaded.clusters()).isEqualTo(live.clusterSet().clusters());
        assertThat(loaded.connectivityPolicies()).isEqualTo(live.clusterSet().connectivityPolicies());
        assertThat(loaded.globalnet()).isEqualTo(live.clusterSet().globalnet());
        Cluster one = loaded.requireCluster("cluster1");
        assertThat(one.nodes()).extracting(n -> n.name() + (n.gateway() ? "*" : "")).containsExactly("gw-1*", "gw-2*", "worker-1");
        assertThat(one.nodes().getFirst().cniIp()).hasToString("10.0.0.1");
        assertThat(one.requireNode("gw-2").tcpClampMss()).hasValue(1300);
        assertThat(file).contains("tcpClampMss: 1300");
        assertThat(one.globalEgressIPs()).singleElement().satisfies(e -> assertThat(e.numberOfIPs()).isEqualTo(2));
        assertThat(loaded.requireCluster("cluster2").exports()).hasSize(2);
        assertThat(loaded.requireCluster("cluster2").service("default", "db").orElseThrow().headless()).isTrue();
        assertThat(loaded.requireCluster("cluster2").service("default", "nginx").orElseThrow().ports().getFirst().name()).contains("http");
        // The file is as good as a hand-written one: the planner takes it.
        assertThat(Planner.plan(loaded).hosts()).isNotEmpty();
    }

    @Test
    void aClusterWithoutItsOwnClusterObjectIsRefusedWithWhatToDo() {
        cluster2.client().resources(SubmarinerCluster.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("cluster2").delete();
        assertThatThrownBy(() -> LiveSnapshot.read("live", List.of(
                new LiveSnapshot.Source("kind-cluster2", cluster2.client(), MockCluster.SUBMARINER_NAMESPACE))))
                .isInstanceOf(LiveSnapshot.SnapshotException.class)
                .hasMessageContaining("kind-cluster2").hasMessageContaining("deploy/cluster.yaml");
    }
}
