package io.periscope.kubernetes.serviceexport;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.broker.GlobalnetInfo;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectionPoliciesSpec;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.ServiceImportSpec;
import io.periscope.kubernetes.testing.DeployedRoles;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/'s RBAC for the {@code periscope-broker-sync} service account against what the
 * {@code broker-sync} subcommand really asks this cluster's API server for, with both of its syncs
 * running: every request, recorded by the mock server, must be allowed by a rule bound to the
 * account, and every rule of the service-export sync's roles must be used by some request (so they
 * grant exactly what it does: no get, no patch). The scenario makes each write happen: this
 * cluster's export is published; another cluster's import and slice arrive, change and go.
 */
class BrokerSyncRoleGrantsEveryRequestItMakesCrudTest {

    private static final String AGENT = "periscope-broker-sync-under-test";
    private static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    private static final Set<String> SERVICE_EXPORT_SYNC_ROLES = Set.of("ClusterRole periscope-service-export-sync",
            "Role periscope-service-export-sync");

    private MockCluster cluster;
    private MockCluster brokerApi;
    private final List<AutoCloseable> running = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
        cluster.close();
        brokerApi.close();
    }

    @Test
    void everyRequestIsGrantedAndEveryGrantOfTheServiceExportSyncIsUsed() {
        cluster = new MockCluster();
        brokerApi = new MockCluster();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);
        LiveObjectsFactory objects = new LiveObjectsFactory(cluster.client());
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", null, false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"), 80);
        objects.export("default", "nginx");
        cluster.takeRequests();

        BrokerSyncSettings settings = new BrokerSyncSettings("cluster1", MockCluster.SUBMARINER_NAMESPACE, BROKER_NAMESPACE, Duration.ofSeconds(30));
        KubernetesClient local = cluster.newClient(AGENT);
        KubernetesClient broker = brokerApi.newClient();
        running.add(new BrokerSync(local, broker, settings).start());
        running.add(new ServiceExportSync(local, broker, settings).start());
        await("cluster1's export is on the broker", () -> brokerImport("nginx-default-cluster1") != null);

        brokerApi.client().resource(remoteImport(80)).create();
        brokerApi.client().resource(remoteSlice("242.254.2.254")).create();
        await("cluster2's web is copied here", () -> localSlice() != null && localImport() != null);
        brokerApi.client().resource(remoteImport(8080)).update();
        brokerApi.client().resource(remoteSlice("242.254.2.253")).update();
        await("the copies follow the broker", () -> localSlice() != null && localSlice().getEndpoints().getFirst().getAddresses().equals(List.of("242.254.2.253"))
                && localImport() != null && localImport().getSpec().ports().getFirst().port() == 8080);
        brokerApi.client().resource(remoteImport(8080)).delete();
        brokerApi.client().resource(remoteSlice("242.254.2.253")).delete();
        await("the copies go with the broker's", () -> localSlice() == null && localImport() == null);

        List<DeployedRoles.Access> accesses = new ArrayList<>();
        for (RecordedRequest request : cluster.takeRequests()) {
            if (AGENT.equals(request.getHeader("User-Agent"))) {
                accesses.add(DeployedRoles.access(request));
            }
        }
        assertThat(accesses).as("the syncs' requests were recorded").isNotEmpty();

        DeployedRoles roles = DeployedRoles.of("periscope-broker-sync");
        Set<String> refused = new LinkedHashSet<>();
        for (DeployedRoles.Access access : accesses) {
            if (!roles.allows(access.verb(), access.group(), access.resource(), access.namespace())) {
                refused.add(access.toString());
            }
        }
        assertThat(refused).as("requests of the broker sync that deploy/rbac.yaml does not grant periscope-broker-sync").isEmpty();

        // Level-driven, not busy: once both sides agree, the syncs' own writes wake them and change nothing.
        brokerApi.takeRequests();
        sleep(Duration.ofSeconds(2));
        assertThat(brokerApi.takeRequests().stream().map(DeployedRoles::access).filter(a -> !List.of("list", "watch", "get").contains(a.verb()))
                .map(DeployedRoles.Access::toString).toList()).as("writes to the broker after the sync settled").isEmpty();
        assertThat(cluster.takeRequests().stream().filter(r -> AGENT.equals(r.getHeader("User-Agent"))).map(DeployedRoles::access)
                .filter(a -> !List.of("list", "watch", "get").contains(a.verb())).map(DeployedRoles.Access::toString).toList())
                .as("writes after the sync settled").isEmpty();

        List<DeployedRoles.Grant> grants = roles.grants().stream().filter(g -> SERVICE_EXPORT_SYNC_ROLES.contains(g.role())).toList();
        assertThat(grants).extracting(DeployedRoles.Grant::role).as("both roles are bound").containsAll(SERVICE_EXPORT_SYNC_ROLES);
        for (DeployedRoles.Grant grant : grants) {
            for (String group : grant.apiGroups()) {
                for (String resource : grant.resources()) {
                    for (String verb : grant.verbs()) {
                        assertThat(accesses).as(grant.role() + " grants " + verb + " " + group + "/" + resource + ", which the sync never asks for")
                                .anyMatch(a -> a.verb().equals(verb) && a.group().equals(group) && a.resource().equals(resource)
                                        && (grant.namespace().isEmpty() || grant.namespace().equals(a.namespace())));
                    }
                }
            }
        }
    }

    @Test
    void theGlobalCidrHandOutAndTheReportOnIgnoredPoliciesAreGrantedAndSettle() {
        cluster = new MockCluster();
        brokerApi = new MockCluster();
        new LiveObjectsFactory(brokerApi.client()).namespace(BROKER_NAMESPACE);
        brokerApi.client().configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName(GlobalnetInfo.CONFIG_MAP_NAME)
                .withNamespace(BROKER_NAMESPACE).endMetadata().withData(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"242.0.0.0/8\"",
                        "globalnetClusterSize", "65536", "clusterinfo", "[]")).build()).create();
        new LiveObjectsFactory(cluster.client()).cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", null, false, 8, Map.of());
        ClusterConnectionPolicies extra = new ClusterConnectionPolicies();
        extra.setMetadata(new ObjectMetaBuilder().withName("extra-policies").withNamespace(MockCluster.SUBMARINER_NAMESPACE).build());
        extra.setSpec(new ClusterConnectionPoliciesSpec(List.of()));
        cluster.client().resource(extra).create();
        cluster.takeRequests();

        BrokerSyncSettings settings = new BrokerSyncSettings("cluster1", MockCluster.SUBMARINER_NAMESPACE, BROKER_NAMESPACE, Duration.ofSeconds(30));
        running.add(new BrokerSync(cluster.newClient(AGENT), brokerApi.newClient(), settings).start());
        // The hand-out edits the Cluster's spec and writes its status; the report writes the policies' status.
        await("cluster1 got its GlobalCIDR and is on the broker", () -> brokerApi.client().resources(SubmarinerCluster.class)
                .inNamespace(BROKER_NAMESPACE).withName("cluster1").get() != null);
        await("the extra policies are told they are ignored", () -> cluster.client().resources(ClusterConnectionPolicies.class)
                .inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("extra-policies").get().getStatus() != null);

        List<DeployedRoles.Access> accesses = cluster.takeRequests().stream().filter(r -> AGENT.equals(r.getHeader("User-Agent")))
                .map(DeployedRoles::access).toList();
        assertThat(accesses).as("the sync's writes were recorded").anyMatch(a -> a.resource().equals("clusters/status"))
                .anyMatch(a -> a.resource().equals("clusterconnectionpolicies/status"));
        DeployedRoles roles = DeployedRoles.of("periscope-broker-sync");
        assertThat(accesses.stream().filter(a -> !roles.allows(a.verb(), a.group(), a.resource(), a.namespace())).map(DeployedRoles.Access::toString)
                .toList()).as("requests of the broker sync that deploy/rbac.yaml does not grant periscope-broker-sync").isEmpty();

        brokerApi.takeRequests();
        sleep(Duration.ofSeconds(2));
        assertThat(brokerApi.takeRequests().stream().map(DeployedRoles::access).filter(a -> !List.of("list", "watch", "get").contains(a.verb()))
                .map(DeployedRoles.Access::toString).toList()).as("writes to the broker after the sync settled").isEmpty();
        assertThat(cluster.takeRequests().stream().filter(r -> AGENT.equals(r.getHeader("User-Agent"))).map(DeployedRoles::access)
                .filter(a -> !List.of("list", "watch", "get").contains(a.verb())).map(DeployedRoles.Access::toString).toList())
                .as("writes after the sync settled").isEmpty();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private ServiceImport brokerImport(String name) {
        return brokerApi.client().resources(ServiceImport.class).inNamespace(BROKER_NAMESPACE).withName(name).get();
    }

    private ServiceImport localImport() {
        return cluster.client().resources(ServiceImport.class).inNamespace("default").withName("web").get();
    }

    private EndpointSlice localSlice() {
        return cluster.client().discovery().v1().endpointSlices().inNamespace("default").withName("web-cluster2").get();
    }

    private static Map<String, String> cluster2Labels() {
        return Map.of(LighthouseApi.SOURCE_CLUSTER_LABEL, "cluster2", LighthouseApi.SERVICE_NAME_LABEL, "web",
                LighthouseApi.SOURCE_NAMESPACE_LABEL, "default", BrokerSync.ORIGIN_LABEL, "cluster2");
    }

    /** What cluster2's sync publishes on the broker for its export of web. */
    private static ServiceImport remoteImport(int port) {
        ServiceImport serviceImport = new ServiceImport();
        serviceImport.setMetadata(new ObjectMetaBuilder().withName("web-default-cluster2").withNamespace(BROKER_NAMESPACE)
                .withLabels(cluster2Labels()).build());
        serviceImport.setSpec(new ServiceImportSpec(ServiceImportSpec.CLUSTER_SET_IP,
                List.of(new ServiceImportSpec.ServiceImportPort(null, "TCP", null, port)), List.of()));
        return serviceImport;
    }

    private static EndpointSlice remoteSlice(String address) {
        return new EndpointSliceBuilder().withMetadata(new ObjectMetaBuilder().withName("web-default-cluster2").withNamespace(BROKER_NAMESPACE)
                        .withLabels(cluster2Labels()).build())
                .withAddressType("IPv4").addNewEndpoint().withAddresses(address).withNewConditions().withReady(true).endConditions().endEndpoint()
                .build();
    }
}
