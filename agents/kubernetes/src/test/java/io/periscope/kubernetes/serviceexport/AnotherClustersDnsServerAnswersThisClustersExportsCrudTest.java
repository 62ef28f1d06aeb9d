package io.periscope.kubernetes.serviceexport;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.ServiceImportSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.dns.DnsAgent;
import io.periscope.kubernetes.dns.DnsAgentSettings;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.periscope.kubernetes.testing.ClustersetLookup.a;
import static io.periscope.kubernetes.testing.Eventually.await;
import static io.periscope.kubernetes.testing.LiveObjectsFactory.endpointSlice;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three API servers, each a fabric8 mock in CRUD mode: cluster1 (Globalnet 242.254.1.0/24, its
 * controller allocating), cluster2 (242.254.2.0/24) and the broker. Each cluster runs what the
 * {@code broker-sync} subcommand runs, {@link BrokerSync} and {@link ServiceExportSync}, and
 * cluster2 runs its DNS server on 127.0.0.1, asked over UDP by the JDK's DNS client. Nothing in
 * cluster2 is written by the test: whatever it answers about cluster1's exports came through the
 * broker in Lighthouse's format.
 */
class AnotherClustersDnsServerAnswersThisClustersExportsCrudTest {

    private static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    private static final String NS = MockCluster.SUBMARINER_NAMESPACE;
    private static final String ZONE = ".default.svc.clusterset.local";
    /** Two syncs, each one pass after a watch event, then one DNS rebuild: with room for a loaded machine. */
    private static final Duration FOLLOWS = Duration.ofSeconds(15);

    private MockCluster brokerApi;
    private MockCluster cluster1Api;
    private MockCluster cluster2Api;
    private KubernetesClient cluster1;
    private GlobalnetController globalnet1;
    private final List<AutoCloseable> running = new java.util.ArrayList<>();
    private DnsAgent dns2;

    @BeforeEach
    void twoClustersAndABroker() {
        brokerApi = new MockCluster();
        cluster1Api = new MockCluster();
        cluster2Api = new MockCluster();
        cluster1 = cluster1Api.client();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);

        LiveObjectsFactory objects1 = new LiveObjectsFactory(cluster1);
        NodeAgents.cluster1WithTwoActiveGateways(objects1);
        endpoint(cluster1, "cluster1", "gw-1", "172.18.0.6", "242.254.1.0/24");
        objects1.pod("default", "nginx-1", "worker-1", "10.0.128.5", Map.of("app", "nginx"));
        objects1.pod("default", "db-0", "worker-1", "10.0.128.6", Map.of("app", "db"));
        objects1.pod("default", "db-1", "worker-1", "10.0.128.7", Map.of("app", "db"));
        objects1.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        objects1.service("default", "db", null, Map.of("app", "db"), 5432);
        cluster1.resource(nginxSlice(true)).create();
        cluster1.resource(dbSlice(true)).create();

        LiveObjectsFactory objects2 = new LiveObjectsFactory(cluster2Api.client());
        objects2.cluster("cluster2", "10.0.0.0/16", "100.0.0.0/16", "242.254.2.0/24", false, 8, Map.of("location", "cloud"));
        objects2.node("gw-3", "172.18.0.4", "10.0.0.0/18", true);
        endpoint(cluster2Api.client(), "cluster2", "gw-3", "172.18.0.4", "242.254.2.0/24");
        objects2.namespace("default");

        globalnet1 = GlobalnetFixture.controller(cluster1Api.newClient(), "cluster1", "globalnet-0");
        for (String cluster : List.of("cluster1", "cluster2")) {
            MockCluster api = cluster.equals("cluster1") ? cluster1Api : cluster2Api;
            BrokerSyncSettings settings = new BrokerSyncSettings(cluster, NS, BROKER_NAMESPACE, Duration.ofSeconds(30));
            KubernetesClient local = api.newClient();
            KubernetesClient broker = brokerApi.newClient();
            running.add(new BrokerSync(local, broker, settings).start());
            running.add(new ServiceExportSync(local, broker, settings).start());
        }
        dns2 = new DnsAgent(cluster2Api.newClient(), new DnsAgentSettings("cluster2", NS, new InetSocketAddress("127.0.0.1", 0), 1,
                Duration.ofSeconds(30))).start();
        running.add(dns2);
        await("cluster2 holds cluster1's Cluster and Endpoint, copied through the broker", () -> cluster2Api.client()
                .resources(SubmarinerEndpoint.class).inNamespace(NS).withName("cluster1-submariner-cable-cluster1-gw-1").get() != null);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
        if (globalnet1 != null) {
            globalnet1.close();
        }
        brokerApi.close();
        cluster1Api.close();
        cluster2Api.close();
    }

    @Test
    void anExportIsAnsweredWithItsGlobalIpInTheOtherClusterAndGoesWithIt() {
        assertThat(a(dns2.address(), "nginx" + ZONE)).as("nothing is exported yet").isEmpty();

        new LiveObjectsFactory(cluster1).export("default", "nginx");
        await("cluster1's Globalnet controller gave nginx its global IP", () -> globalIp("svc-nginx").isPresent());
        String nginx = globalIp("svc-nginx").orElseThrow();
        assertThat(nginx).startsWith("242.254.1.");
        await("cluster2's DNS server answers cluster1's global IP for nginx", FOLLOWS,
                () -> a(dns2.address(), "nginx" + ZONE).equals(Optional.of(List.of(nginx))));
        assertThat(a(dns2.address(), "cluster1.nginx" + ZONE)).contains(List.of(nginx));

        ServiceImport published = brokerApi.client().resources(ServiceImport.class).inNamespace(BROKER_NAMESPACE)
                .withName("nginx-default-cluster1").get();
        assertThat(published.getSpec()).as("the MCS API's ServiceImport on the broker: type, ports, the global IP")
                .isEqualTo(new ServiceImportSpec(ServiceImportSpec.CLUSTER_SET_IP,
                        List.of(new ServiceImportSpec.ServiceImportPort(null, "TCP", null, 80)), List.of(nginx)));
        assertThat(published.getMetadata().getLabels()).containsEntry(LighthouseApi.SOURCE_CLUSTER_LABEL, "cluster1")
                .containsEntry(LighthouseApi.SERVICE_NAME_LABEL, "nginx").containsEntry(LighthouseApi.SOURCE_NAMESPACE_LABEL, "default");
        ServiceImport imported = cluster2Api.client().resources(ServiceImport.class).inNamespace("default").withName("nginx").get();
        assertThat(imported.getSpec().type()).isEqualTo(ServiceImportSpec.CLUSTER_SET_IP);
        assertThat(imported.getMetadata().getLabels()).containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);

        cluster1.resources(ServiceExportResource.class).inNamespace("default").withName("nginx").delete();
        await("cluster2's DNS server answers NXDOMAIN once the export is gone", FOLLOWS, () -> a(dns2.address(), "nginx" + ZONE).isEmpty());
        await("the copies are gone from the broker and from cluster2", FOLLOWS, () ->
                brokerApi.client().resources(ServiceImport.class).inNamespace(BROKER_NAMESPACE).list().getItems().isEmpty()
                        && brokerApi.client().discovery().v1().endpointSlices().inNamespace(BROKER_NAMESPACE).list().getItems().isEmpty()
                        && cluster2Api.client().resources(ServiceImport.class).inAnyNamespace().list().getItems().isEmpty()
                        && cluster2Api.client().discovery().v1().endpointSlices().inNamespace("default").list().getItems().isEmpty());
    }

    @Test
    void anExportWithoutItsServiceIsNotPublished() {
        LiveObjectsFactory objects1 = new LiveObjectsFactory(cluster1);
        objects1.export("default", "ghost");
        objects1.export("default", "nginx");
        await("nginx is on the broker", FOLLOWS, () -> brokerApi.client().resources(ServiceImport.class).inNamespace(BROKER_NAMESPACE)
                .withName("nginx-default-cluster1").get() != null);
        assertThat(brokerApi.client().resources(ServiceImport.class).inNamespace(BROKER_NAMESPACE).list().getItems())
                .extracting(i -> i.getMetadata().getName()).containsExactly("nginx-default-cluster1");
        assertThat(a(dns2.address(), "ghost" + ZONE)).isEmpty();
    }

    @Test
    void aHeadlessPodThatTurnsNotReadyLeavesTheOtherClustersAnswer() {
        new LiveObjectsFactory(cluster1).export("default", "db");
        await("cluster1's Globalnet controller gave db-0 and db-1 their global IPs",
                () -> globalIp("pod-db-0").isPresent() && globalIp("pod-db-1").isPresent());
        String db0 = globalIp("pod-db-0").orElseThrow();
        String db1 = globalIp("pod-db-1").orElseThrow();
        await("cluster2 answers both pods' global IPs", FOLLOWS,
                () -> a(dns2.address(), "db" + ZONE).map(Set::copyOf).equals(Optional.of(Set.of(db0, db1))));
        assertThat(a(dns2.address(), "db-1.cluster1.db" + ZONE)).contains(List.of(db1));
        assertThat(cluster2Api.client().resources(ServiceImport.class).inNamespace("default").withName("db").get().getSpec().type())
                .isEqualTo(ServiceImportSpec.HEADLESS);

        cluster1.resource(dbSlice(false)).update();
        await("db-1 leaves cluster2's answer", FOLLOWS, () -> a(dns2.address(), "db" + ZONE).equals(Optional.of(List.of(db0))));
        assertThat(a(dns2.address(), "db-1.cluster1.db" + ZONE)).as("its own name is gone too").isEmpty();
        EndpointSlice copy = cluster2Api.client().discovery().v1().endpointSlices().inNamespace("default").withName("db-cluster1").get();
        assertThat(copy.getEndpoints()).as("the copy still lists db-1, not ready, as Lighthouse's slices do")
                .anyMatch(e -> "db-1".equals(e.getHostname()) && e.getAddresses().equals(List.of(db1)) && Boolean.FALSE.equals(e.getConditions().getReady()));

        cluster1.resource(dbSlice(true)).update();
        await("db-1 is answered again once ready", FOLLOWS,
                () -> a(dns2.address(), "db" + ZONE).map(Set::copyOf).equals(Optional.of(Set.of(db0, db1))));
    }

    @Test
    void aClusterSetIpExportWhoseOnlyBackendTurnsNotReadyLeavesTheOtherClustersAnswer() {
        new LiveObjectsFactory(cluster1).export("default", "nginx");
        await("cluster1's Globalnet controller gave nginx its global IP", () -> globalIp("svc-nginx").isPresent());
        String nginx = globalIp("svc-nginx").orElseThrow();
        await("cluster2 answers cluster1's nginx", FOLLOWS, () -> a(dns2.address(), "nginx" + ZONE).equals(Optional.of(List.of(nginx))));

        cluster1.resource(nginxSlice(false)).update();
        await("nginx is answered empty for cluster2 (NOERROR, as Lighthouse answers) while its only exporter has no ready backend", FOLLOWS,
                () -> a(dns2.address(), "nginx" + ZONE).equals(Optional.of(List.of())));
        assertThat(a(dns2.address(), "cluster1.nginx" + ZONE)).as("a cluster-qualified name is answered whatever the readiness, as by Lighthouse")
                .contains(List.of(nginx));

        cluster1.resource(nginxSlice(true)).update();
        await("cluster2 answers cluster1's nginx again once nginx-1 is ready", FOLLOWS,
                () -> a(dns2.address(), "nginx" + ZONE).equals(Optional.of(List.of(nginx))));
    }

    private Optional<String> globalIp(String globalIngressIp) {
        return GlobalnetFixture.ingress(cluster1, "default", globalIngressIp).flatMap(i -> Optional.ofNullable(i.getStatus()))
                .flatMap(s -> Optional.ofNullable(s.allocatedIP()));
    }

    private static void endpoint(KubernetesClient client, String cluster, String gateway, String ip, String globalCidr) {
        SubmarinerEndpoint endpoint = new SubmarinerEndpoint();
        endpoint.setMetadata(new ObjectMetaBuilder().withName(cluster + "-submariner-cable-" + cluster + "-" + gateway).withNamespace(NS).build());
        endpoint.setSpec(new EndpointSpec(cluster, "submariner-cable-" + cluster + "-" + ip.replace('.', '-'), null, gateway,
                List.of(globalCidr), ip, ip, false, "vxlan", Map.of(), List.of()));
        client.resource(endpoint).create();
    }

    /** The endpoint controller's slice of nginx in cluster1: its only backend nginx-1, ready or not. */
    private static EndpointSlice nginxSlice(boolean ready) {
        return endpointSlice("default", "nginx", 80, LiveObjectsFactory.endpoint("default", "nginx-1", "10.0.128.5", ready));
    }

    /** The endpoint controller's slice of db in cluster1: db-0 ready, db-1 ready or not. */
    private static EndpointSlice dbSlice(boolean db1Ready) {
        return endpointSlice("default", "db", 5432, LiveObjectsFactory.endpoint("default", "db-0", "10.0.128.6", true),
                LiveObjectsFactory.endpoint("default", "db-1", "10.0.128.7", db1Ready));
    }
}
