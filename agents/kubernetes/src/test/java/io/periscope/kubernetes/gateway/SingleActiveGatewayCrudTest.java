package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.routeagent.RouteAgent;
import io.periscope.kubernetes.testing.FreshNode;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static io.periscope.kubernetes.testing.GlobalnetFixture.egress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 002's egress objects on cluster1 with two gateway nodes and one lease: the leader programs
 * Globalnet 2.0 with its precedence (pod selector, then namespace, then cluster) and publishes its
 * Endpoint; the other waits; the worker routes through the leader; a failover moves all of it.
 */
class SingleActiveGatewayCrudTest {

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
    void clusterWithTwoGatewaysAndEgressObjects() {
        cluster = new MockCluster();
        client = cluster.client();
        LiveObjectsFactory objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of("location", "on-premise"));
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.pod("ns1", "db", "worker-1", "10.0.128.4", Map.of("role", "db"));
        objects.pod("ns1", "web", "worker-1", "10.0.128.5", Map.of("role", "web"));
        objects.egress("ns1", "ns-egress", 2, null);
        objects.egress("ns1", "db-pods", 1, Map.of("role", "db"));
        NodeAgents.remoteCluster2(objects, client);
        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-0");
        assertThatEventually("Globalnet allocated the egress objects", () ->
                assertThat(egress(client, "ns1", "db-pods").orElseThrow().getStatus().allocatedIPs()).containsExactly("242.254.1.254"));
    }

    @AfterEach
    void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {worker, gw1, gw2, globalnet}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        cluster.close();
    }

    @Test
    void theLeaderProgramsGlobalnetInPrecedenceOrderAndTheStandbyWaits() {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", false, gw1Kernel);
        await("gw-1 leads", gw1::leading);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", false, gw2Kernel);
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel);

        assertThatEventually("gw-1 programmed Globalnet 2.0", () -> {
            String nat = gw1Kernel.inputTo("iptables-restore");
            assertThat(nat).contains("-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8");
            assertThat(nat).contains("--to-source 242.254.1.9-242.254.1.10").contains("--to-source 242.254.1.254");
            // Precedence is the order of the jumps: the first SNAT that matches wins.
            assertThat(nat.indexOf("-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-PODS"))
                    .isPositive()
                    .isLessThan(nat.indexOf("-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-NS"));
            assertThat(nat.indexOf("-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-NS")).isLessThan(nat.indexOf("-A SUBMARINER-GN-EGRESS -j SM-GN-EGRESS-CLUSTER"));
            assertThat(gw1Kernel.inputTo("ipset")).contains("10.0.128.4");
            // Upstream's Gateway controller: the gateway's own global IP, after the egress objects, DNATed for health checks.
            assertThat(nat).contains("-A SUBMARINER-GN-INGRESS -d 242.254.1.253/32 -p icmp -j DNAT --to-destination 10.0.0.1");
        });
        assertThatEventually("gw-1 published its Endpoint and Gateway status", () -> {
            SubmarinerEndpoint endpoint = client.resources(SubmarinerEndpoint.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE)
                    .withName("cluster1-submariner-cable-cluster1-gw-1").get();
            assertThat(endpoint.getSpec().subnets()).containsExactly("242.254.1.0/24");
            assertThat(endpoint.getSpec().privateIp()).isEqualTo("172.18.0.6");
            assertThat(endpoint.getSpec().backend()).isEqualTo("vxlan");
            assertThat(endpoint.getSpec().healthCheckIP()).as("the gateway's global IP, which remote health checks ping").isEqualTo("242.254.1.253");
            assertThat(GlobalnetFixture.gatewayGlobalIp(client, "gw-1")).as("kept on its Gateway object, as upstream 0.18 on keeps it")
                    .contains("242.254.1.253");
            assertThat(client.nodes().withName("gw-1").get().getMetadata().getAnnotations()).doesNotContainKey("submariner.io/globalIp");
            assertThat(gateway("gw-1").map(g -> g.getStatus().haStatus())).contains(GatewayStatus.ACTIVE);
            assertThat(gateway("gw-1").orElseThrow().getStatus().connections()).singleElement()
                    .satisfies(c -> assertThat(c.endpoint().hostname()).isEqualTo("gw-3"));
            assertThat(gateway("gw-2").map(g -> g.getStatus().haStatus())).contains(GatewayStatus.PASSIVE);
        });
        assertThatEventually("the worker routes the remote global CIDR through gw-1's tunnel address", () ->
                assertThat(workerKernel.inputTo("ip")).contains("242.254.2.0/24").contains("240.18.0.6").doesNotContain("240.18.0.8"));
        assertThat(gw2Kernel.inputTo("iptables-restore")).doesNotContain("SM-GN-EGRESS-CLUSTER -s");
    }

    @Test
    void whenTheLeaderGoesTheStandbyTakesOverItsEndpointAndItsProgram() {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", false, gw1Kernel);
        await("gw-1 leads", gw1::leading);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", false, gw2Kernel);
        await("gw-1's Endpoint", () -> endpoint("gw-1").isPresent());

        gw1.close();
        gw1 = null;
        await("gw-2 leads", gw2::leading);
        assertThatEventually("gw-2 is the cluster's only gateway, programmed like gw-1 was", () -> {
            assertThat(endpoint("gw-2")).isPresent();
            assertThat(endpoint("gw-1")).isEmpty();
            assertThat(gw2Kernel.inputTo("iptables-restore"))
                    .contains("-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8");
            assertThat(gateway("gw-2").map(g -> g.getStatus().haStatus())).contains(GatewayStatus.ACTIVE);
            // The health-check global IP is per gateway: gw-1's Gateway keeps its own, and gw-2 gets
            // one of its own, which its Endpoint publishes and its kernel DNATs.
            assertThat(GlobalnetFixture.gatewayGlobalIp(client, "gw-2")).contains("242.254.1.252");
            assertThat(GlobalnetFixture.gatewayGlobalIp(client, "gw-1")).contains("242.254.1.253");
            assertThat(endpoint("gw-2").orElseThrow().getSpec().healthCheckIP()).isEqualTo("242.254.1.252");
            assertThat(gw2Kernel.inputTo("iptables-restore"))
                    .contains("-A SUBMARINER-GN-INGRESS -d 242.254.1.252/32 -p icmp -j DNAT --to-destination 10.0.64.1")
                    .doesNotContain("-d 242.254.1.253/32");
        });
    }

    @Test
    void aFlagThatContradictsTheClusterObjectIsReportedAndNothingIsProgrammed() {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        assertThatEventually("the Gateway status says what is wrong", () ->
                assertThat(gateway("gw-1").orElseThrow().getStatus().statusFailure()).contains("--multi-active-gateway", "multi_active_gateways"));
        assertThat(gw1Kernel.writes()).isEmpty();
        assertThat(endpoint("gw-1")).isEmpty();
    }

    private Optional<Gateway> gateway(String node) {
        return Optional.ofNullable(client.resources(Gateway.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(node).get())
                .filter(g -> g.getStatus() != null);
    }

    private Optional<SubmarinerEndpoint> endpoint(String node) {
        return NodeAgents.endpoint(client, "cluster1", node);
    }
}
