package io.periscope.kubernetes.networkpluginsyncer;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.ovn.NbRow;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.SharedNorthbound;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 003's network plugin syncer on an OVN-Kubernetes cluster1 (gateways gw-1 and gw-2, a worker),
 * with an in-memory northbound database that the test fills with OVN-Kubernetes' rows the way
 * OVN-Kubernetes would: the syncer adds Submariner's rows, follows remote clusters and the active
 * gateway as their objects come and go, waits for OVN-Kubernetes without failing, and leaves a
 * cluster that is not OVN-Kubernetes alone.
 */
class NetworkPluginSyncerProgramsSubmarinersOvnRowsCrudTest {

    private static final String NS = MockCluster.SUBMARINER_NAMESPACE;

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private final List<NetworkPluginSyncer> syncers = new ArrayList<>();

    @BeforeEach
    void apiServer() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
    }

    @AfterEach
    void stop() {
        syncers.forEach(NetworkPluginSyncer::close);
        cluster.close();
    }

    private void ovnCluster1(String cni) {
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", null, false, 8, Map.of("location", "on-premise"), cni);
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.pod("ns1", "web", "worker-1", "10.0.128.5", Map.of("app", "web"));
        objects.service("ns1", "web", "100.0.10.20", Map.of("app", "web"), 80);
        // OVN-Kubernetes names gw-1's chassis by its system-id.
        var gw1 = client.nodes().withName("gw-1").get();
        gw1.getMetadata().setAnnotations(Map.of(SyncerPass.CHASSIS_ID_ANNOTATION, "4f7c0b7e-gw-1-system-id"));
        client.resource(gw1).update();
    }

    /** cluster2 as the broker sync leaves it: its Cluster object and its gateway's Endpoint, both labelled as copies. */
    private void remoteCluster2() {
        var remote = objects.cluster("cluster2", "10.1.0.0/16", "100.1.0.0/16", null, false, 8, Map.of("location", "cloud"));
        remote.getMetadata().setLabels(Map.of("location", "cloud", SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true"));
        client.resource(remote).update();
        SubmarinerEndpoint endpoint = new SubmarinerEndpoint();
        endpoint.setMetadata(new ObjectMetaBuilder().withName("cluster2-submariner-cable-cluster2-gw-3").withNamespace(NS)
                .withLabels(Map.of(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true")).build());
        endpoint.setSpec(new EndpointSpec("cluster2", "submariner-cable-cluster2-172-18-0-4", "10.1.0.1", "gw-3",
                List.of("10.1.0.0/16", "100.1.0.0/16"), "172.18.0.4", "172.18.0.4", false, "vxlan", Map.of(), List.of()));
        client.resource(endpoint).create();
    }

    /** What OVN-Kubernetes builds for cluster1 as its objects are now: the plan's rows of its scope. */
    private void ovnKubernetesBuilds(SharedNorthbound northbound) {
        LiveObjects live = LiveObjectsReader.read(client, NS, "cluster1");
        LiveModel model = ClusterModelBuilder.build("cluster1", List.of(live));
        OvnTopology topology = Planner.plan(model.clusterSet(), model.addresses()).ovn("cluster1").orElseThrow();
        new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(topology);
    }

    /**
     * The resync is longer than any test waits, so every pass a test sees was woken by a change to
     * the objects, by the lease, or by the syncer's own retry.
     */
    private NetworkPluginSyncer syncer(String identity, SharedNorthbound northbound) {
        NetworkPluginSyncer syncer = new NetworkPluginSyncer(cluster.newClient(),
                new NetworkPluginSyncerSettings("cluster1", NS, identity, GlobalnetFixture.FAST, Duration.ofMinutes(5), Duration.ofMillis(200)),
                northbound).start();
        syncers.add(syncer);
        return syncer;
    }

    private static List<String> reroutes(SharedNorthbound northbound) {
        return northbound.rows().rows(NbRow.PolicyRow.class).stream()
                .filter(p -> p.router().equals("ovn_cluster_router") && p.priority() == 20000)
                .map(p -> p.match() + " " + p.action() + " " + String.join(",", p.nexthops())).sorted().toList();
    }

    private static List<String> submarinerRoutes(SharedNorthbound northbound) {
        return northbound.rows().rows(NbRow.RouteRow.class).stream().filter(r -> r.router().equals("submariner_router"))
                .map(r -> r.prefix() + " " + r.nexthop() + " " + r.outputPort().orElse("")).sorted().toList();
    }

    private static Optional<String> chassis(SharedNorthbound northbound) {
        return northbound.rows().rows(NbRow.RouterRow.class).stream().filter(r -> r.name().equals("submariner_router")).findFirst()
                .flatMap(NbRow.RouterRow::chassis);
    }

    @Test
    void programsSubmarinersRowsAndFollowsRemoteClustersAndTheActiveGateway() {
        ovnCluster1("ovn-kubernetes");
        SharedNorthbound northbound = new SharedNorthbound();
        ovnKubernetesBuilds(northbound);
        List<NbRow> ovnKubernetesRows = northbound.rows().plain();

        NetworkPluginSyncer syncer = syncer("nps-0", northbound);
        assertThatEventually("submariner_router, its switches and the route down to the pods", () -> {
            assertThat(chassis(northbound)).contains("4f7c0b7e-gw-1-system-id");
            assertThat(northbound.rows().find("logical_switch submariner_join")).isPresent();
            assertThat(northbound.rows().find("logical_switch submariner_gateway")).isPresent();
            assertThat(northbound.rows().find("logical_router_port ovn_cluster_router/ovn_cluster_subm_lrp")).isPresent();
            assertThat(submarinerRoutes(northbound)).containsExactly("10.0.0.0/16 169.254.254.2 submariner_j_lrp", "100.0.0.0/16 169.254.254.2 submariner_j_lrp");
        });
        assertThat(reroutes(northbound)).as("no remote cluster yet").isEmpty();
        assertThat(northbound.rows().plain()).as("OVN-Kubernetes' rows are left as they were").containsAll(ovnKubernetesRows);

        // A change that does not touch Submariner's part: the next pass reads the database and writes nothing.
        int writes = northbound.writes().size();
        long passes = syncer.passes();
        objects.pod("ns1", "web-2", "worker-1", "10.0.128.6", Map.of("app", "web"));
        await("a pass after the new pod", () -> syncer.passes() > passes);
        assertThat(syncer.lastOutcome()).containsInstanceOf(SyncOutcome.UpToDate.class);
        assertThat(northbound.writes()).hasSize(writes);

        remoteCluster2();
        assertThatEventually("cluster2's CIDRs are rerouted to submariner_router and routed up to the gateway's host", () -> {
            assertThat(reroutes(northbound)).containsExactly("ip4.dst == 10.1.0.0/16 reroute 169.254.254.1", "ip4.dst == 100.1.0.0/16 reroute 169.254.254.1");
            assertThat(submarinerRoutes(northbound)).contains("10.1.0.0/16 169.254.254.10 submariner_up_lrp", "100.1.0.0/16 169.254.254.10 submariner_up_lrp");
        });

        // gw-2 takes the gateway lease: submariner_router moves to its chassis (no annotation: its node name).
        client.resource(new LeaseBuilder().withNewMetadata().withName(LiveObjectsReader.GATEWAY_LEASE).withNamespace(NS).endMetadata()
                .withNewSpec().withHolderIdentity("gw-2").endSpec().build()).create();
        await("submariner_router is pinned to gw-2", () -> chassis(northbound).equals(Optional.of("gw-2")));

        client.resources(SubmarinerEndpoint.class).inNamespace(NS).withName("cluster2-submariner-cable-cluster2-gw-3").delete();
        assertThatEventually("cluster2's gateway is gone: so are its policies and routes", () -> {
            assertThat(reroutes(northbound)).isEmpty();
            assertThat(submarinerRoutes(northbound)).containsExactly("10.0.0.0/16 169.254.254.2 submariner_j_lrp", "100.0.0.0/16 169.254.254.2 submariner_j_lrp");
        });
        assertThat(northbound.rows().plain()).containsAll(ovnKubernetesRows);
    }

    @Test
    void waitsForOvnKubernetesToBuildItsRowsAndThenPrograms() {
        ovnCluster1("ovn-kubernetes");
        remoteCluster2();
        SharedNorthbound northbound = new SharedNorthbound();

        NetworkPluginSyncer syncer = syncer("nps-0", northbound);
        assertThatEventually("the syncer says what it waits for", () -> assertThat(syncer.lastOutcome()).hasValueSatisfying(o -> {
            assertThat(o).isInstanceOf(SyncOutcome.WaitingForOvnKubernetes.class);
            assertThat(o.describe()).contains("logical_router ovn_cluster_router", "load_balancer_group clusterLBGroup");
        }));
        assertThat(northbound.writes()).as("nothing was written while the rows were missing").isEmpty();
        long passesWhileWaiting = syncer.passes();

        // No Kubernetes object changes: only the syncer's own retry can notice the new rows.
        ovnKubernetesBuilds(northbound);
        assertThatEventually("the syncer tried again and programmed", () -> {
            assertThat(reroutes(northbound)).containsExactly("ip4.dst == 10.1.0.0/16 reroute 169.254.254.1", "ip4.dst == 100.1.0.0/16 reroute 169.254.254.1");
            assertThat(chassis(northbound)).contains("4f7c0b7e-gw-1-system-id");
        });
        // A pass counts once it has ended, which may be a moment after its writes are seen.
        assertThatEventually("the programming pass came after the waiting ones",
                () -> assertThat(syncer.passes()).isGreaterThan(passesWhileWaiting));
    }

    @Test
    void onlyTheLeaseHolderProgramsAndAStandbyTakesOver() {
        ovnCluster1("ovn-kubernetes");
        remoteCluster2();
        // Separate databases, so that each replica's writes can be told apart.
        SharedNorthbound first = new SharedNorthbound();
        SharedNorthbound second = new SharedNorthbound();
        ovnKubernetesBuilds(first);
        ovnKubernetesBuilds(second);

        NetworkPluginSyncer leader = syncer("nps-0", first);
        await("nps-0 leads", leader::leading);
        NetworkPluginSyncer standby = syncer("nps-1", second);
        await("nps-0 programmed", () -> reroutes(first).size() == 2);
        await("nps-1 has looked and stands by", () -> standby.lastOutcome().filter(SyncOutcome.Standby.class::isInstance).isPresent());
        assertThat(second.writes()).as("only OVN-Kubernetes' transaction").hasSize(1);

        leader.close();
        await("nps-1 leads", standby::leading);
        await("nps-1 programmed", () -> reroutes(second).size() == 2);
    }

    @Test
    void aClusterThatIsNotOvnKubernetesIsLeftAlone() {
        ovnCluster1("kube-proxy");
        remoteCluster2();
        SharedNorthbound northbound = new SharedNorthbound();

        NetworkPluginSyncer syncer = syncer("nps-0", northbound);
        assertThatEventually("the syncer says why it does nothing", () -> assertThat(syncer.lastOutcome()).hasValueSatisfying(o -> {
            assertThat(o).isInstanceOf(SyncOutcome.NotOvnKubernetes.class);
            assertThat(o.describe()).contains("kube-proxy");
        }));
        long passes = syncer.passes();
        objects.node("worker-2", "172.18.0.12", "10.0.192.0/18", false);
        await("a pass after the new node", () -> syncer.passes() > passes);
        assertThat(northbound.reads()).as("the database is not even read").isZero();
        assertThat(northbound.writes()).isEmpty();
    }
}
