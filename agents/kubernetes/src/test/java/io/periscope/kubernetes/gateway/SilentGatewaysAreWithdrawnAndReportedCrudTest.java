package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.health.ScriptedProber;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayConnection;
import io.periscope.kubernetes.crd.RouteAgentResource;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.routeagent.RouteAgent;
import io.periscope.kubernetes.testing.FreshNode;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004's failure handling on live objects: a worker stops routing through a local gateway that
 * no longer answers its probes, and a gateway stops routing to a remote gateway that no longer
 * answers and says so in its Gateway status; both take the gateway back once it has answered for
 * the hold-down period. Each status entry carries the time of its last verdict change, the
 * checker's own. The probes are scripted here; the kernel tests of agents/dataplane send real ones.
 */
class SilentGatewaysAreWithdrawnAndReportedCrudTest {

    private static final Ipv4Address GW1_VX = Ipv4Address.parse("240.18.0.6");
    private static final Ipv4Address GW4_CABLE = Ipv4Address.parse("241.18.0.9");

    private MockCluster cluster;
    private KubernetesClient client;
    private GlobalnetController globalnet;
    private GatewayAgent gw1;
    private GatewayAgent gw2;
    private RouteAgent worker;
    private final FreshNode gw1Kernel = new FreshNode();
    private final FreshNode gw2Kernel = new FreshNode();
    private final FreshNode workerKernel = new FreshNode();

    @BeforeEach
    void clusterWithTwoActiveGatewaysAndARemoteClusterWithTwo() {
        cluster = new MockCluster();
        client = cluster.client();
        LiveObjectsFactory objects = new LiveObjectsFactory(client);
        NodeAgents.cluster1WithTwoActiveGateways(objects);
        NodeAgents.remoteCluster2WithTwoGateways(objects, client);
        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-0");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {worker, gw1, gw2, globalnet}) {
            if (closeable != null) {
                closeable.close();
            }
        }
        cluster.close();
    }

    @Test
    void aWorkerStopsRoutingThroughASilentLocalGatewayAndTakesItBack() {
        ScriptedProber probes = new ScriptedProber();
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", true, gw2Kernel);
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel, probes);
        assertThatEventually("the worker routes through both gateways", () ->
                assertThat(workerKernel.lastInputTo("ip")).contains("242.254.2.0/24").contains("240.18.0.6").contains("240.18.0.8"));

        assertThatEventually("the worker's RouteAgent object says both gateways are up", () ->
                assertThat(routeAgentStatus("worker-1")).containsExactly("cluster1/gw-1 240.18.0.6 up", "cluster1/gw-2 240.18.0.8 up"));
        Instant upSince = routeAgentTransition("worker-1", "cluster1/gw-1");
        assertThat(upSince).isEqualTo(verdictTime(worker, "cluster1/gw-1"));
        Instant gw2UpSince = routeAgentTransition("worker-1", "cluster1/gw-2");

        probes.silence(GW1_VX);
        assertThatEventually("gw-1 is withdrawn from the worker's route and reported down", () -> {
            assertThat(worker.health().down()).containsExactly("cluster1/gw-1");
            assertThat(workerKernel.lastInputTo("ip")).contains("242.254.2.0/24").contains("240.18.0.8").doesNotContain("via 240.18.0.6");
            assertThat(routeAgentStatus("worker-1")).containsExactly("cluster1/gw-1 240.18.0.6 down", "cluster1/gw-2 240.18.0.8 up");
        });
        Instant downSince = routeAgentTransition("worker-1", "cluster1/gw-1");
        assertThat(downSince).as("the down verdict's own time").isAfter(upSince).isEqualTo(verdictTime(worker, "cluster1/gw-1"));
        assertThat(routeAgentTransition("worker-1", "cluster1/gw-2")).as("gw-2 did not change").isEqualTo(gw2UpSince);
        assertThat(gw1.leading()).as("a silent path is not a lost lease: gw-1 is still active").isTrue();

        probes.answer(GW1_VX);
        assertThatEventually("gw-1 is back after the hold-down", () -> {
            assertThat(worker.health().down()).isEmpty();
            assertThat(workerKernel.lastInputTo("ip")).contains("240.18.0.6").contains("240.18.0.8");
            assertThat(routeAgentStatus("worker-1")).containsExactly("cluster1/gw-1 240.18.0.6 up", "cluster1/gw-2 240.18.0.8 up");
        });
        assertThat(routeAgentTransition("worker-1", "cluster1/gw-1")).as("back up no earlier than a hold-down after the first answer")
                .isAfterOrEqualTo(downSince.plus(NodeAgents.FAST_HEALTH.holdDown()))
                .isEqualTo(verdictTime(worker, "cluster1/gw-1"));
    }

    @Test
    void aGatewayStopsRoutingToASilentRemoteGatewayAndSaysSoInItsStatus() {
        ScriptedProber probes = new ScriptedProber();
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel, probes);
        await("gw-1 leads", () -> gw1.leading());
        assertThatEventually("gw-1 routes to cluster2 through gw-3 and gw-4, both connected", () -> {
            assertThat(gw1Kernel.lastInputTo("ip")).contains("via 241.18.0.4").contains("via 241.18.0.9");
            assertThat(connection("gw-4")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(GatewayConnection.CONNECTED));
        });
        Instant upSince = Instant.parse(connection("gw-4").orElseThrow().lastTransitionTime());
        assertThat(upSince).isEqualTo(verdictTime(gw1, "cluster2/gw-4"));
        Instant gw3UpSince = Instant.parse(connection("gw-3").orElseThrow().lastTransitionTime());

        probes.silence(GW4_CABLE);
        assertThatEventually("gw-4 is withdrawn and reported", () -> {
            assertThat(gw1.health().down()).containsExactly("cluster2/gw-4");
            String routes = gw1Kernel.lastInputTo("ip");
            assertThat(routes).containsPattern("242\\.254\\.2\\.0/24 table 100 .*via 241\\.18\\.0\\.4").doesNotContainPattern("242\\.254\\.2\\.0/24 table 100 .*via 241\\.18\\.0\\.9");
            assertThat(connection("gw-4")).hasValueSatisfying(c -> {
                assertThat(c.status()).isEqualTo(GatewayConnection.ERROR);
                assertThat(c.statusMessage()).startsWith("down: ").contains("241.18.0.9");
            });
            assertThat(connection("gw-3")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(GatewayConnection.CONNECTED));
        });
        Instant downSince = Instant.parse(connection("gw-4").orElseThrow().lastTransitionTime());
        assertThat(downSince).as("the down verdict's own time").isAfter(upSince).isEqualTo(verdictTime(gw1, "cluster2/gw-4"));
        assertThat(Instant.parse(connection("gw-3").orElseThrow().lastTransitionTime())).as("gw-3 did not change").isEqualTo(gw3UpSince);

        probes.answer(GW4_CABLE);
        assertThatEventually("gw-4 is connected again", () ->
                assertThat(connection("gw-4")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(GatewayConnection.CONNECTED)));
        assertThat(Instant.parse(connection("gw-4").orElseThrow().lastTransitionTime()))
                .isAfterOrEqualTo(downSince.plus(NodeAgents.FAST_HEALTH.holdDown()))
                .isEqualTo(verdictTime(gw1, "cluster2/gw-4"));
    }

    private Instant routeAgentTransition(String node, String gateway) {
        RouteAgentResource agent = client.resources(RouteAgentResource.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(node).get();
        return Instant.parse(agent.getStatus().gateways().stream().filter(g -> g.gateway().equals(gateway)).findFirst().orElseThrow()
                .lastTransitionTime());
    }

    private static Instant verdictTime(RouteAgent agent, String gateway) {
        return agent.health().peers().entrySet().stream().filter(e -> e.getKey().gateway().equals(gateway)).findFirst().orElseThrow()
                .getValue().lastTransition();
    }

    private static Instant verdictTime(GatewayAgent agent, String gateway) {
        return agent.health().peers().entrySet().stream().filter(e -> e.getKey().gateway().equals(gateway)).findFirst().orElseThrow()
                .getValue().lastTransition();
    }

    private List<String> routeAgentStatus(String node) {
        RouteAgentResource agent = client.resources(RouteAgentResource.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(node).get();
        if (agent == null || agent.getStatus() == null) {
            return List.of();
        }
        return agent.getStatus().gateways().stream().map(g -> g.gateway() + " " + g.address() + " " + g.status()).toList();
    }

    private Optional<GatewayConnection> connection(String remoteGateway) {
        Gateway gateway = client.resources(Gateway.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName("gw-1").get();
        if (gateway == null || gateway.getStatus() == null) {
            return Optional.empty();
        }
        return gateway.getStatus().connections().stream().filter(c -> c.endpoint() != null && remoteGateway.equals(c.endpoint().hostname())).findFirst();
    }
}
