package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
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

import java.util.List;
import java.util.Optional;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.Eventually.await;
import static io.periscope.kubernetes.testing.GlobalnetFixture.clusterEgress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004 with Globalnet: {@code --multi-active-gateway}, one lease per gateway node, a
 * ClusterGlobalEgressIP per gateway whose addresses its Endpoint carries as allocated_ips, and a
 * worker whose multipath route uses every gateway that holds its lease.
 */
class MultiActiveGatewaysCrudTest {

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
    void clusterWithTwoActiveGateways() {
        cluster = new MockCluster();
        client = cluster.client();
        LiveObjectsFactory objects = new LiveObjectsFactory(client);
        NodeAgents.cluster1WithTwoActiveGateways(objects);
        NodeAgents.remoteCluster2(objects, client);
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
    void everyGatewayLeadsItsOwnLeaseAndSnatsToItsOwnAddresses() {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", true, gw2Kernel);
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel);

        await("both gateways lead", () -> gw1.leading() && gw2.leading());
        assertThat(lease("submariner-gateway-lock-gw-1").getSpec().getHolderIdentity()).isEqualTo("gw-1");
        assertThat(lease("submariner-gateway-lock-gw-2").getSpec().getHolderIdentity()).isEqualTo("gw-2");
        assertThatEventually("Globalnet made one ClusterGlobalEgressIP per gateway", () -> {
            assertThat(clusterEgress(client, "gw-1-cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs()).hasSize(8);
            assertThat(clusterEgress(client, "gw-2-cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs()).hasSize(8);
            assertThat(clusterEgress(client, "cluster-egress.submariner.io")).isEmpty();
        });
        List<String> gw1Addresses = clusterEgress(client, "gw-1-cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs();
        List<String> gw2Addresses = clusterEgress(client, "gw-2-cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs();
        assertThat(gw1Addresses).doesNotContainAnyElementsOf(gw2Addresses);

        assertThatEventually("each gateway SNATs to its own range and publishes it", () -> {
            assertThat(gw1Kernel.inputTo("iptables-restore")).contains("--to-source " + gw1Addresses.getFirst() + "-" + gw1Addresses.getLast());
            assertThat(gw2Kernel.inputTo("iptables-restore")).contains("--to-source " + gw2Addresses.getFirst() + "-" + gw2Addresses.getLast());
            assertThat(endpoint("gw-1").orElseThrow().getSpec().allocatedIPs()).isEqualTo(gw1Addresses);
            assertThat(endpoint("gw-2").orElseThrow().getSpec().allocatedIPs()).isEqualTo(gw2Addresses);
        });
        assertThatEventually("the worker's route to cluster2 has a nexthop through each gateway", () ->
                assertThat(workerKernel.inputTo("ip")).contains("242.254.2.0/24").contains("240.18.0.6").contains("240.18.0.8"));
    }

    @Test
    void aGatewayThatStopsLeavesTheOtherCarryingEverything() {
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", true, gw2Kernel);
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel);
        await("both Endpoints", () -> endpoint("gw-1").isPresent() && endpoint("gw-2").isPresent());

        gw1.close();
        gw1 = null;
        assertThatEventually("gw-1's Endpoint is gone and the worker routes through gw-2 alone", () -> {
            assertThat(endpoint("gw-1")).isEmpty();
            assertThat(endpoint("gw-2")).isPresent();
            String routes = workerKernel.lastInputTo("ip");
            assertThat(routes).contains("242.254.2.0/24").contains("240.18.0.8").doesNotContain("240.18.0.6");
        });
        assertThat(gw2.leading()).isTrue();
    }

    @Test
    void eachGatewayReportsInTheObjectsStatusThatItsRulesAreProgrammed() {
        new LiveObjectsFactory(client).egress("ns1", "ns-egressip", 1, null);
        gw1 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-1", true, gw1Kernel);
        gw2 = NodeAgents.gateway(cluster.newClient(), "cluster1", "gw-2", true, gw2Kernel);

        assertThatEventually("both gateways say they programmed the namespace's egress IP, each its own cluster egress", () -> {
            var egress = GlobalnetFixture.egress(client, "ns1", "ns-egressip").orElseThrow();
            String address = egress.getStatus().allocatedIPs().getFirst();
            assertThat(condition(egress.getStatus().conditions(), "gw-1")).contains("True gateway gw-1 programmed the rules for " + address);
            assertThat(condition(egress.getStatus().conditions(), "gw-2")).contains("True gateway gw-2 programmed the rules for " + address);
            var own = clusterEgress(client, "gw-1-cluster-egress.submariner.io").orElseThrow().getStatus();
            assertThat(condition(own.conditions(), "gw-1")).isPresent();
            assertThat(condition(own.conditions(), "gw-2")).isEmpty();
            assertThat(gw1Kernel.inputTo("iptables-restore")).contains("--to-source " + address);
        });
        // The controller's own condition is untouched by the gateways'.
        assertThat(GlobalnetFixture.reason(GlobalnetFixture.egress(client, "ns1", "ns-egressip").orElseThrow())).contains("Success");

        gw1.close();
        gw1 = null;
        assertThatEventually("a stopped gateway's conditions go with it", () -> {
            var egress = GlobalnetFixture.egress(client, "ns1", "ns-egressip").orElseThrow();
            assertThat(condition(egress.getStatus().conditions(), "gw-1")).isEmpty();
            assertThat(condition(egress.getStatus().conditions(), "gw-2")).isPresent();
        });
    }

    private static Optional<String> condition(List<io.fabric8.kubernetes.api.model.Condition> conditions, String node) {
        return conditions.stream().filter(c -> ProgrammedConditions.type(node).equals(c.getType()))
                .map(c -> c.getStatus() + " " + c.getMessage()).findFirst();
    }

    private Lease lease(String name) {
        return client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(name).get();
    }

    private Optional<SubmarinerEndpoint> endpoint(String node) {
        return NodeAgents.endpoint(client, "cluster1", node);
    }
}
