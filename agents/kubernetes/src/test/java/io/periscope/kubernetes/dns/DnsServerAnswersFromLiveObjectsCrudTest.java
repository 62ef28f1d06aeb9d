package io.periscope.kubernetes.dns;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.health.ScriptedProber;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayConnection;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.ServiceImportSpec;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.gateway.GatewayAgent;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.testing.FreshNode;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import io.periscope.model.net.Ipv4Address;
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
import static io.periscope.kubernetes.testing.LiveObjectsFactory.endpoint;
import static io.periscope.kubernetes.testing.LiveObjectsFactory.endpointSlice;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code dns} component on cluster1 of seed 004's drawing (gw-1 and gw-2, Globalnet
 * 242.254.1.0/24), with the Globalnet controller allocating its global IPs: nginx (ClusterIP) and db
 * (headless, pods db-0 and db-1) exported here; cluster2, known through the broker (gateways gw-3
 * and gw-4), exports nginx and web, as Lighthouse's ServiceImports and EndpointSlices say. The
 * server runs on 127.0.0.1 and is asked over UDP by the JDK's DNS client; every change must show in
 * its answers within {@link #FOLLOWS}. nginx-1, nginx's only backend here, is ready unless a test
 * says otherwise.
 */
class DnsServerAnswersFromLiveObjectsCrudTest {

    /** How soon an answer must follow a change of the objects: one rebuild after one watch event, with room for a loaded machine. */
    private static final Duration FOLLOWS = Duration.ofSeconds(5);
    private static final String ZONE = ".default.svc.clusterset.local";
    private static final Ipv4Address GW3_CABLE = Ipv4Address.parse("241.18.0.4");
    private static final Ipv4Address GW4_CABLE = Ipv4Address.parse("241.18.0.9");

    private MockCluster cluster;
    private KubernetesClient client;
    private GlobalnetController globalnet;
    private DnsAgent dns;
    private GatewayAgent gw1;

    @BeforeEach
    void clusterSetWithExportsHereAndInCluster2() {
        cluster = new MockCluster();
        client = cluster.client();
        LiveObjectsFactory objects = new LiveObjectsFactory(client);
        NodeAgents.cluster1WithTwoActiveGateways(objects);
        NodeAgents.remoteCluster2WithTwoGateways(objects, client);

        objects.pod("default", "nginx-1", "worker-1", "10.0.128.5", Map.of("app", "nginx"));
        objects.pod("default", "db-0", "worker-1", "10.0.128.6", Map.of("app", "db"));
        objects.pod("default", "db-1", "worker-1", "10.0.128.7", Map.of("app", "db"));
        objects.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        objects.service("default", "db", null, Map.of("app", "db"), 5432);
        objects.export("default", "nginx");
        objects.export("default", "db");
        client.resource(dbSlice(true)).create();
        client.resource(nginxSlice(true)).create();

        serviceImport("nginx", ServiceImportSpec.CLUSTER_SET_IP, 80);
        serviceImport("web", ServiceImportSpec.CLUSTER_SET_IP, 8080);
        lighthouseSlice("nginx", "242.254.2.254");
        lighthouseSlice("web", "242.254.2.253");

        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-0");
        await("the Globalnet controller gave nginx, db-0 and db-1 their global IPs",
                () -> globalIp("svc-nginx").isPresent() && globalIp("pod-db-0").isPresent() && globalIp("pod-db-1").isPresent());
        dns = new DnsAgent(cluster.newClient(), new DnsAgentSettings("cluster1", MockCluster.SUBMARINER_NAMESPACE,
                new InetSocketAddress("127.0.0.1", 0), 1, Duration.ofSeconds(30))).start();
    }

    @AfterEach
    void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {dns, gw1, globalnet}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        cluster.close();
    }

    @Test
    void exportsAreAnsweredOverUdpWithTheGlobalIpsInTheirGlobalIngressIps() {
        String nginx = globalIp("svc-nginx").orElseThrow();
        assertThat(nginx).as("from cluster1's global CIDR").startsWith("242.254.1.");

        assertThat(a(dns.address(), "nginx" + ZONE)).as("cluster1's own export is preferred").contains(List.of(nginx));
        assertThat(a(dns.address(), "cluster2.nginx" + ZONE)).contains(List.of("242.254.2.254"));
        assertThat(a(dns.address(), "web" + ZONE)).as("exported by cluster2 only, from its ServiceImport and slice")
                .contains(List.of("242.254.2.253"));
        assertThat(a(dns.address(), "db" + ZONE).orElseThrow()).as("a headless service answers its pods' global IPs")
                .containsExactlyInAnyOrder(globalIp("pod-db-0").orElseThrow(), globalIp("pod-db-1").orElseThrow());
        assertThat(a(dns.address(), "db-1.cluster1.db" + ZONE)).contains(List.of(globalIp("pod-db-1").orElseThrow()));
        assertThat(a(dns.address(), "cache" + ZONE)).as("nobody exports it").isEmpty();
    }

    @Test
    void anExportCreatedAfterTheStartIsAnswered() {
        assertThat(a(dns.address(), "api" + ZONE)).isEmpty();
        serviceImport("api", ServiceImportSpec.CLUSTER_SET_IP, 443);
        lighthouseSlice("api", "242.254.2.252");
        await("api is answered", FOLLOWS, () -> a(dns.address(), "api" + ZONE).equals(Optional.of(List.of("242.254.2.252"))));
    }

    @Test
    void aPodWhoseEndpointTurnsNotReadyLeavesTheHeadlessAnswer() {
        String db0 = globalIp("pod-db-0").orElseThrow();
        String db1 = globalIp("pod-db-1").orElseThrow();
        assertThat(a(dns.address(), "db" + ZONE).orElseThrow()).containsExactlyInAnyOrder(db0, db1);

        client.resource(dbSlice(false)).update();
        await("db-1 is no longer answered", FOLLOWS, () -> a(dns.address(), "db" + ZONE).equals(Optional.of(List.of(db0))));
        assertThat(a(dns.address(), "db-1.cluster1.db" + ZONE)).as("its own name is gone too").isEmpty();

        client.resource(dbSlice(true)).update();
        await("db-1 is answered again once ready", FOLLOWS, () -> a(dns.address(), "db" + ZONE).map(Set::copyOf).equals(Optional.of(Set.of(db0, db1))));
    }

    @Test
    void aClusterSetIpExportWhoseOnlyBackendTurnsNotReadyLeavesTheAnswer() {
        String own = globalIp("svc-nginx").orElseThrow();
        assertThat(a(dns.address(), "nginx" + ZONE)).as("cluster1's own export is preferred while nginx-1 is ready").contains(List.of(own));

        client.resource(nginxSlice(false)).update();
        await("cluster2's export answers once cluster1's only nginx backend is not ready", FOLLOWS,
                () -> a(dns.address(), "nginx" + ZONE).equals(Optional.of(List.of("242.254.2.254"))));
        assertThat(why("nginx")).contains("cluster1, verdict=NO_READY_ENDPOINTS");
        assertThat(a(dns.address(), "cluster1.nginx" + ZONE)).as("cluster1's own name is still answered: Lighthouse answers a named"
                + " cluster whatever its health").contains(List.of(own));

        client.resource(nginxSlice(true)).update();
        await("cluster1's export is preferred again once nginx-1 is ready", FOLLOWS, () -> a(dns.address(), "nginx" + ZONE).equals(Optional.of(List.of(own))));
    }

    @Test
    void theOnlyExportingClusterWithNoReadyEndpointLeavesTheAnswerEmpty() {
        assertThat(a(dns.address(), "web" + ZONE)).contains(List.of("242.254.2.253"));

        client.resource(lighthouseSliceOf("web", "242.254.2.253", false)).update();
        await("web is answered empty (NOERROR, as Lighthouse answers) while cluster2's slice says no backend of it is ready", FOLLOWS,
                () -> a(dns.address(), "web" + ZONE).equals(Optional.of(List.of())));
        assertThat(why("web")).startsWith("NOERROR").contains("cluster2, verdict=NO_READY_ENDPOINTS");

        client.resource(lighthouseSliceOf("web", "242.254.2.253", true)).update();
        await("web is answered again once ready", FOLLOWS, () -> a(dns.address(), "web" + ZONE).equals(Optional.of(List.of("242.254.2.253"))));
    }

    @Test
    void aClusterWhoseGatewaysAreAllReportedDownIsLeftOut() {
        ScriptedProber probes = new ScriptedProber();
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, new FreshNode(), probes);
        await("gw-1's Gateway status is active and says both of cluster2's gateways are connected",
                () -> connections().equals(Map.of("gw-3", GatewayConnection.CONNECTED, "gw-4", GatewayConnection.CONNECTED)));
        await("web is answered while cluster2's gateways are connected", FOLLOWS, () -> web().isPresent());

        probes.silence(GW3_CABLE);
        await("gw-1 reports gw-3 down, gw-4 still connected",
                () -> connections().equals(Map.of("gw-3", GatewayConnection.ERROR, "gw-4", GatewayConnection.CONNECTED)));
        await("web is still answered: one of cluster2's gateways is up", FOLLOWS, () -> web().isPresent());

        probes.silence(GW4_CABLE);
        await("cluster2 is left out once gw-1 reports all its gateways down", FOLLOWS, () -> web().isEmpty());
        assertThat(connections()).containsOnly(Map.entry("gw-3", GatewayConnection.ERROR), Map.entry("gw-4", GatewayConnection.ERROR));
        assertThat(why("web")).startsWith("NOERROR").contains("GATEWAYS_DOWN");
        assertThat(a(dns.address(), "cluster2.nginx" + ZONE)).as("Periscope leaves the cluster with no gateway out of its name too: empty")
                .contains(List.of());
        assertThat(a(dns.address(), "nginx" + ZONE)).as("cluster1's own export needs no gateway").contains(List.of(globalIp("svc-nginx").orElseThrow()));

        probes.answer(GW3_CABLE);
        await("cluster2 is answered again once a gateway is back", FOLLOWS, () -> web().isPresent());
    }

    /** web's A records, which only cluster2 exports: empty when the name does not exist. */
    private Optional<List<String>> web() {
        Optional<List<String>> answer = a(dns.address(), "web" + ZONE).filter(records -> !records.isEmpty());
        answer.ifPresent(records -> assertThat(records).containsExactly("242.254.2.253"));
        return answer;
    }

    /** gw-1's connections as its Gateway status says: remote gateway to status; empty while it is not active. */
    private Map<String, String> connections() {
        Gateway gateway = client.resources(Gateway.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("gw-1").get();
        if (gateway == null || gateway.getStatus() == null || !GatewayStatus.ACTIVE.equals(gateway.getStatus().haStatus())) {
            return Map.of();
        }
        Map<String, String> connections = new java.util.TreeMap<>();
        gateway.getStatus().connections().forEach(c -> connections.put(c.endpoint().hostname(), c.status()));
        return connections;
    }

    @Test
    void aClusterWithNoEndpointLeftIsLeftOut() {
        assertThat(a(dns.address(), "web" + ZONE)).contains(List.of("242.254.2.253"));
        client.resources(SubmarinerEndpoint.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("cluster2-submariner-cable-cluster2-gw-3").delete();
        client.resources(SubmarinerEndpoint.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("cluster2-submariner-cable-cluster2-gw-4").delete();
        await("cluster2 is left out with its last Endpoint: an empty NOERROR", FOLLOWS,
                () -> a(dns.address(), "web" + ZONE).equals(Optional.of(List.of())));
    }

    /** The resolver's reasons, for a failure's message. */
    private String why(String service) {
        var answer = dns.discovery().answer(service + ZONE, io.periscope.plan.dns.DnsRecord.A, Optional.of("cluster1"),
                io.periscope.plan.dns.Rotation.FIRST);
        return answer.rcode() + " " + answer.clusters() + " " + answer.note().orElse("");
    }

    private Optional<String> globalIp(String globalIngressIp) {
        return GlobalnetFixture.ingress(client, "default", globalIngressIp).flatMap(i -> Optional.ofNullable(i.getStatus()))
                .flatMap(s -> Optional.ofNullable(s.allocatedIP()));
    }

    /** The endpoint controller's slice of db: db-0 ready, db-1 ready or not. */
    private static EndpointSlice dbSlice(boolean db1Ready) {
        return endpointSlice("default", "db", 5432, endpoint("default", "db-0", "10.0.128.6", true),
                endpoint("default", "db-1", "10.0.128.7", db1Ready));
    }

    /** The endpoint controller's slice of nginx: its only backend nginx-1, ready or not. */
    private static EndpointSlice nginxSlice(boolean ready) {
        return endpointSlice("default", "nginx", 80, endpoint("default", "nginx-1", "10.0.128.5", ready));
    }

    private void serviceImport(String service, String type, int port) {
        ServiceImport serviceImport = new ServiceImport();
        serviceImport.setMetadata(new ObjectMetaBuilder().withName(service).withNamespace("default").build());
        serviceImport.setSpec(new ServiceImportSpec(type, List.of(new ServiceImportSpec.ServiceImportPort(null, "TCP", null, port)), List.of()));
        client.resource(serviceImport).create();
    }

    /** cluster2's slice of a ClusterSetIP service as Lighthouse's agent writes it: one endpoint, the service's global IP. */
    private void lighthouseSlice(String service, String globalIp) {
        client.resource(lighthouseSliceOf(service, globalIp, true)).create();
    }

    /** The same slice, its endpoint ready when the service has a ready backend in cluster2. */
    private static EndpointSlice lighthouseSliceOf(String service, String globalIp, boolean ready) {
        return new EndpointSliceBuilder().withNewMetadata().withName(service + "-cluster2").withNamespace("default")
                .withLabels(Map.of(LighthouseApi.SOURCE_CLUSTER_LABEL, "cluster2", LighthouseApi.SERVICE_NAME_LABEL, service,
                        LighthouseApi.SOURCE_NAMESPACE_LABEL, "default", LighthouseApi.MANAGED_BY_LABEL, LighthouseApi.MANAGED_BY_LIGHTHOUSE))
                .endMetadata()
                .withAddressType("IPv4")
                .addToEndpoints(new EndpointBuilder().withAddresses(globalIp).withNewConditions().withReady(ready).endConditions().build())
                .build();
    }
}
