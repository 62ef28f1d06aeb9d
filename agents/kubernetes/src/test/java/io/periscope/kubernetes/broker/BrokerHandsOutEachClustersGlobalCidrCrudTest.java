package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 000's "each cluster is given a subnet from this virtual Global Private Network", on a broker
 * and member clusters that are each a mock API server, every cluster running its broker sync: the
 * broker's {@code submariner-globalnet-info} enables Globalnet, and the syncs hand the blocks out.
 */
class BrokerHandsOutEachClustersGlobalCidrCrudTest {

    private static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    private static final String NS = MockCluster.SUBMARINER_NAMESPACE;

    private MockCluster brokerApi;
    private final Map<String, MockCluster> clusters = new HashMap<>();
    private final Map<String, BrokerSync> syncs = new HashMap<>();

    @BeforeEach
    void broker() {
        brokerApi = new MockCluster();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);
    }

    @AfterEach
    void stop() {
        syncs.values().forEach(BrokerSync::close);
        clusters.values().forEach(MockCluster::close);
        brokerApi.close();
    }

    @Test
    void twoClustersJoiningAtOnceGetDistinctBlocksOfTheClusterSize() {
        globalnetInfo("242.0.0.0/8", 65536, "[]");
        cluster("cluster1", null);
        cluster("cluster2", null);
        startSync("cluster1");
        startSync("cluster2");

        assertThatEventually("both clusters hold a block the broker recorded", () -> {
            assertThat(condition("cluster1").getReason()).isEqualTo("Allocated");
            assertThat(condition("cluster2").getReason()).isEqualTo("Allocated");
        });
        Ipv4Prefix block1 = Ipv4Prefix.parse(globalCidr("cluster1"));
        Ipv4Prefix block2 = Ipv4Prefix.parse(globalCidr("cluster2"));
        assertThat(List.of(block1, block2)).containsExactlyInAnyOrder(Ipv4Prefix.parse("242.0.0.0/16"), Ipv4Prefix.parse("242.1.0.0/16"));
        assertThat(record()).containsEntry("cluster1", block1).containsEntry("cluster2", block2);
        assertThat(condition("cluster1").getStatus()).isEqualTo("True");
        assertThat(condition("cluster1").getMessage()).contains(block1.toString(), "242.0.0.0/8");
        assertThatEventually("each cluster knows the other's block through the broker", () -> {
            assertThat(copyOn("cluster1", "cluster2").getSpec().globalCidr()).containsExactly(block2.toString());
            assertThat(copyOn("cluster2", "cluster1").getSpec().globalCidr()).containsExactly(block1.toString());
        });
    }

    @Test
    void clustersAskingAtTheSameMomentNeverShareABlock() {
        // Four clusters joined while Globalnet was off; turning it on wakes all four syncs with the
        // same record in hand, so all but one of their first updates carry a stale resourceVersion.
        globalnetInfo("242.0.0.0/8", 65536, "[]");
        brokerApi.client().configMaps().inNamespace(BROKER_NAMESPACE).withName(GlobalnetInfo.CONFIG_MAP_NAME)
                .edit(c -> new ConfigMapBuilder(c).addToData("globalnetEnabled", "false").build());
        List<String> ids = List.of("cluster1", "cluster2", "cluster3", "cluster4");
        for (String id : ids) {
            cluster(id, null);
            startSync(id);
        }
        assertThatEventually("all four are on the broker without Globalnet", () -> ids.forEach(id -> assertThat(onBroker(id)).isNotNull()));

        // Every version of the record, as the broker stored them one after the other.
        List<Map<String, Ipv4Prefix>> versions = new CopyOnWriteArrayList<>();
        Watch history = brokerApi.client().configMaps().inNamespace(BROKER_NAMESPACE).withName(GlobalnetInfo.CONFIG_MAP_NAME)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap configMap) {
                        versions.add(GlobalnetInfo.read(configMap).clusters());
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
        brokerApi.client().configMaps().inNamespace(BROKER_NAMESPACE).withName(GlobalnetInfo.CONFIG_MAP_NAME)
                .edit(c -> new ConfigMapBuilder(c).addToData("globalnetEnabled", "true").build());

        assertThatEventually("every cluster got a block", () -> ids.forEach(id -> assertThat(condition(id).getReason()).isEqualTo("Allocated")));
        history.close();
        // No update was lost: each version keeps every entry of the one before (a write from a stale read would drop one).
        for (int i = 1; i < versions.size(); i++) {
            assertThat(versions.get(i)).as("record version " + i + " keeps version " + (i - 1)).containsAllEntriesOf(versions.get(i - 1));
        }
        assertThat(ids.stream().map(this::globalCidr).toList()).as("one block each")
                .containsExactlyInAnyOrder("242.0.0.0/16", "242.1.0.0/16", "242.2.0.0/16", "242.3.0.0/16");
        assertThat(record()).hasSize(4);
        ids.forEach(id -> assertThat(record().get(id)).hasToString(globalCidr(id)));
    }

    @Test
    void aPreconfiguredGlobalCidrWinsOverTheRecordAndTheHandOut() {
        // The record still holds an older block for cluster1; its Cluster now names the block a hand-out would give first.
        globalnetInfo("242.0.0.0/8", 65536, "[{\"cluster_id\":\"cluster1\",\"global_cidr\":[\"242.7.0.0/16\"]}]");
        cluster("cluster1", "242.0.0.0/16");
        startSync("cluster1");
        assertThatEventually("cluster1 keeps what it names", () -> assertThat(condition("cluster1").getReason()).isEqualTo("Preconfigured"));
        assertThat(record()).containsEntry("cluster1", Ipv4Prefix.parse("242.0.0.0/16"));
        assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16");

        cluster("cluster2", null);
        startSync("cluster2");
        assertThatEventually("cluster2 gets the next free block", () -> assertThat(condition("cluster2").getReason()).isEqualTo("Allocated"));
        assertThat(globalCidr("cluster2")).isEqualTo("242.1.0.0/16");
        assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16");
    }

    @Test
    void anOverlappingPreconfiguredGlobalCidrIsRefusedOnItsClusterUntilItIsCorrected() {
        globalnetInfo("242.0.0.0/8", 65536, "[]");
        cluster("cluster1", null);
        startSync("cluster1");
        assertThatEventually("cluster1 joined", () -> assertThat(condition("cluster1").getReason()).isEqualTo("Allocated"));
        assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16");

        cluster("cluster2", "242.0.128.0/17");
        startSync("cluster2");
        assertThatEventually("cluster2's CIDR is refused on its Cluster", () -> {
            Condition refused = condition("cluster2");
            assertThat(refused.getStatus()).isEqualTo("False");
            assertThat(refused.getReason()).isEqualTo("Overlaps");
            assertThat(refused.getMessage()).contains("242.0.128.0/17", "242.0.0.0/16", "cluster1", "remove global_cidr");
        });
        assertThat(record()).doesNotContainKey("cluster2");
        assertThat(onBroker("cluster2")).as("a refused cluster is not published").isNull();
        assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16");

        // The fix the condition names: no global_cidr, so the broker hands one out.
        clusters.get("cluster2").client().resources(SubmarinerCluster.class).inNamespace(NS).withName("cluster2")
                .edit(c -> {
                    c.setSpec(c.getSpec().withGlobalCidr(List.of()));
                    return c;
                });
        assertThatEventually("cluster2 joins with a block of its own", () -> {
            assertThat(condition("cluster2").getReason()).isEqualTo("Allocated");
            assertThat(onBroker("cluster2")).isNotNull();
        });
        assertThat(globalCidr("cluster2")).isEqualTo("242.1.0.0/16");
    }

    @Test
    void aPreconfiguredGlobalCidrOutsideTheGlobalnetCidrIsRefused() {
        globalnetInfo("242.0.0.0/8", 65536, "[]");
        cluster("cluster1", "169.254.0.0/16");
        startSync("cluster1");
        assertThatEventually("refused", () -> {
            assertThat(condition("cluster1").getReason()).isEqualTo("OutsideGlobalnetCIDR");
            assertThat(condition("cluster1").getMessage()).contains("169.254.0.0/16", "242.0.0.0/8", "submariner-globalnet-info");
        });
        assertThat(record()).isEmpty();
        assertThat(onBroker("cluster1")).isNull();
    }

    @Test
    void restartedSyncsFindTheSameBlocksInTheBrokersRecord() {
        globalnetInfo("242.0.0.0/8", 65536, "[]");
        cluster("cluster1", null);
        startSync("cluster1");
        assertThatEventually("cluster1 joined first", () -> assertThat(condition("cluster1").getReason()).isEqualTo("Allocated"));
        cluster("cluster2", null);
        startSync("cluster2");
        assertThatEventually("cluster2 joined", () -> assertThat(condition("cluster2").getReason()).isEqualTo("Allocated"));
        assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16");
        assertThat(globalCidr("cluster2")).isEqualTo("242.1.0.0/16");

        syncs.remove("cluster1").close();
        syncs.remove("cluster2").close();
        // Both clusters lose what they were given (a reinstall): only the broker remembers.
        forget("cluster1");
        forget("cluster2");
        // cluster2 comes back first: from memory or from scratch it would now get the lowest block.
        startSync("cluster2");
        assertThatEventually("cluster2 gets its block back", () -> assertThat(globalCidr("cluster2")).isEqualTo("242.1.0.0/16"));
        startSync("cluster1");
        assertThatEventually("cluster1 gets its block back", () -> assertThat(globalCidr("cluster1")).isEqualTo("242.0.0.0/16"));
        assertThat(record()).hasSize(2);
    }

    @Test
    void aClusterThePoolHasNoBlockLeftForIsToldSoOnItsCluster() {
        globalnetInfo("242.0.0.0/15", 65536, "[]");
        cluster("cluster1", null);
        cluster("cluster2", null);
        startSync("cluster1");
        startSync("cluster2");
        assertThatEventually("the two blocks are taken", () -> assertThat(record()).hasSize(2));

        cluster("cluster3", null);
        startSync("cluster3");
        assertThatEventually("cluster3 is told the pool is full", () -> {
            Condition full = condition("cluster3");
            assertThat(full.getStatus()).isEqualTo("False");
            assertThat(full.getReason()).isEqualTo("PoolExhausted");
            assertThat(full.getMessage()).contains("242.0.0.0/15", "65536", "cluster1", "cluster2");
        });
        assertThat(globalCidr("cluster3")).isNull();
        assertThat(onBroker("cluster3")).isNull();
        assertThat(record()).hasSize(2);
    }

    private void globalnetInfo(String cidr, int clusterSize, String clusterInfo) {
        ConfigMap configMap = new ConfigMapBuilder().withNewMetadata().withName(GlobalnetInfo.CONFIG_MAP_NAME).withNamespace(BROKER_NAMESPACE)
                .endMetadata().withData(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"" + cidr + "\"",
                        "globalnetClusterSize", String.valueOf(clusterSize), "clusterinfo", clusterInfo)).build();
        brokerApi.client().resource(configMap).create();
    }

    private void cluster(String id, String globalCidr) {
        MockCluster api = new MockCluster();
        clusters.put(id, api);
        new LiveObjectsFactory(api.client()).cluster(id, "10.0.0.0/16", "100.0.0.0/16", globalCidr, false, 8, Map.of());
    }

    private void startSync(String id) {
        syncs.put(id, new BrokerSync(clusters.get(id).newClient(), brokerApi.newClient(),
                new BrokerSyncSettings(id, NS, BROKER_NAMESPACE, Duration.ofSeconds(2))).start());
    }

    private void forget(String id) {
        clusters.get(id).client().resources(SubmarinerCluster.class).inNamespace(NS).withName(id).edit(c -> {
            c.setSpec(c.getSpec().withGlobalCidr(List.of()));
            c.getMetadata().setAnnotations(Map.of());
            return c;
        });
    }

    private SubmarinerCluster own(String id) {
        return clusters.get(id).client().resources(SubmarinerCluster.class).inNamespace(NS).withName(id).get();
    }

    private String globalCidr(String id) {
        List<String> cidrs = own(id).getSpec().globalCidr();
        return cidrs.isEmpty() ? null : cidrs.getFirst();
    }

    private Condition condition(String id) {
        SubmarinerCluster cluster = own(id);
        assertThat(cluster.getStatus()).as(id + " has a status").isNotNull();
        return cluster.getStatus().conditions().stream().filter(c -> SubmarinerApi.GLOBAL_CIDR_CONDITION.equals(c.getType())).findFirst()
                .orElseThrow(() -> new AssertionError(id + " has no " + SubmarinerApi.GLOBAL_CIDR_CONDITION + " condition"));
    }

    private SubmarinerCluster onBroker(String id) {
        return brokerApi.client().resources(SubmarinerCluster.class).inNamespace(BROKER_NAMESPACE).withName(id).get();
    }

    private SubmarinerCluster copyOn(String cluster, String of) {
        SubmarinerCluster copy = clusters.get(cluster).client().resources(SubmarinerCluster.class).inNamespace(NS).withName(of).get();
        assertThat(copy).as(cluster + " holds " + of + "'s Cluster").isNotNull();
        return copy;
    }

    private Map<String, Ipv4Prefix> record() {
        return GlobalnetInfo.read(brokerApi.client().configMaps().inNamespace(BROKER_NAMESPACE).withName(GlobalnetInfo.CONFIG_MAP_NAME).get()).clusters();
    }
}
