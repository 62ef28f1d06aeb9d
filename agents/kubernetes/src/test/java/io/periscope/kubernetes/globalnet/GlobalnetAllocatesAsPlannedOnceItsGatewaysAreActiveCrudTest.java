package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalnetAllocator;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.GlobalnetFixture.clusterEgress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.gatewayGlobalIp;
import static io.periscope.kubernetes.testing.GlobalnetFixture.gatewaySlices;
import static io.periscope.kubernetes.testing.GlobalnetFixture.ingress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * cluster1 of {@code examples/mag-globalnet-egress.yaml}: two active gateways owning their egress,
 * seed 002's GlobalEgressIPs and an exported headless service. Which addresses the Globalnet
 * controller hands out depends on the gateways that are active when it first allocates: the
 * per-gateway ClusterGlobalEgressIPs and slices are made for the gateways holding a Lease. Started
 * once both hold theirs, as upstream's Globalnet starts its controllers only once its gateway is
 * active ({@code pkg/globalnet/controllers/gateway_monitor.go}: TransitionToGateway, leader
 * election, then startControllers), it hands out exactly what {@code periscope plan} does; a
 * gateway that becomes active after the first allocations gets what is left.
 */
class GlobalnetAllocatesAsPlannedOnceItsGatewaysAreActiveCrudTest {

    private static final Path EXAMPLE = Path.of("..", "..", "examples", "mag-globalnet-egress.yaml");

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;
    private Cluster model;
    private ClusterGlobalnetAllocations planned;

    @BeforeEach
    void theExamplesCluster1() throws Exception {
        model = TopologyLoader.load(EXAMPLE).cluster("cluster1").orElseThrow();
        planned = GlobalnetAllocator.allocate(model, model.globalCidr().orElseThrow(), GlobalnetMode.V2);
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", model.globalCidr().orElseThrow().toString(), true,
                model.clusterEgressIPs(), Map.of());
        objects.perGatewayEgress("cluster1");
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.pod("ns1", "report", "worker-1", "10.0.128.4", Map.of("app", "report"));
        objects.pod("ns1", "db-0", "worker-1", "10.0.128.5", Map.of("role", "db"));
        objects.pod("default", "cache-0", "worker-1", "10.0.128.6", Map.of("app", "cache"));
        objects.service("default", "cache", null, Map.of("app", "cache"), 6379);
        objects.export("default", "cache");
        objects.egress("ns1", "ns-egressip", 1, null);
        objects.egress("ns1", "db-pods", 2, Map.of("role", "db"));
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void startedOnceEveryGatewayIsActiveItHandsOutWhatThePlanSays() {
        active("gw-1");
        active("gw-2");
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertHandsOut(planned);
    }

    /**
     * The controller asks for each gateway's objects in node-name order (the API server lists Nodes
     * by name); a file that lists gw-2 before gw-1 must be planned the same way, or the plan gives
     * gw-2 the addresses gw-1 gets on a cluster.
     */
    @Test
    void aFileListingItsGatewaysOutOfNameOrderIsPlannedAsTheControllerAllocates() {
        List<Node> reversed = new java.util.ArrayList<>(model.nodes());
        java.util.Collections.reverse(reversed);
        Cluster outOfOrder = model.withNodes(reversed);
        assertThat(outOfOrder.gateways().stream().map(Node::name)).as("the file's gateway order").containsExactly("gw-2", "gw-1");
        ClusterGlobalnetAllocations plannedOutOfOrder = GlobalnetAllocator.allocate(outOfOrder, model.globalCidr().orElseThrow(), GlobalnetMode.V2);
        active("gw-2");
        active("gw-1");
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");

        assertHandsOut(plannedOutOfOrder);
    }

    private void assertHandsOut(ClusterGlobalnetAllocations planned) {
        assertThatEventually("every object holds the plan's addresses", () -> {
            for (String gateway : List.of("gw-1", "gw-2")) {
                String name = planned.clusterEgress(gateway).orElseThrow().object().name();
                assertThat(clusterEgress(client, name).map(o -> o.getStatus() == null ? List.<String>of() : o.getStatus().allocatedIPs()))
                        .as("ClusterGlobalEgressIP %s", name).contains(text(planned.clusterEgress(gateway).orElseThrow().addresses()));
                assertThat(gatewayGlobalIp(client, gateway)).as("%s's own global IP", gateway)
                        .contains(planned.gatewayGlobalIp(gateway).orElseThrow().toString());
            }
            for (String egress : List.of("ns-egressip", "db-pods")) {
                assertThat(gatewaySlices(client, "ns1", egress)).as("the slices of ns1/%s", egress)
                        .isEqualTo(planned.egressSlices("ns1", egress).stream()
                                .map(s -> new AllocationStatus.GatewaySlice(s.gateway(), text(s.addresses()))).toList());
            }
            assertThat(ingress(client, "default", "pod-cache-0").map(i -> i.getStatus() == null ? null : i.getStatus().allocatedIP()))
                    .as("cache-0's GlobalIngressIP").contains(planned.ingressForPod("default", "cache-0").orElseThrow().addresses().getFirst().toString());
        });
    }

    @Test
    void aGatewayActiveOnlyAfterTheFirstAllocationsGetsWhatIsLeft() {
        active("gw-1");
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        // gw-1 alone: its 8 cluster egress IPs .1-.8, then db-pods' slice of 2, the lowest free run: .9-.10,
        // which the plan gives gw-2's ClusterGlobalEgressIP.
        assertThatEventually("gw-1's slices while it is the only active gateway", () ->
                assertThat(gatewaySlices(client, "ns1", "db-pods")).containsExactly(
                        new AllocationStatus.GatewaySlice("gw-1", List.of("242.254.1.9", "242.254.1.10"))));
        assertThat(planned.clusterEgress("gw-2").orElseThrow().addresses()).as("the plan's gw-2 cluster egress IPs")
                .contains(Ipv4Address.parse("242.254.1.9"), Ipv4Address.parse("242.254.1.10"));

        active("gw-2");
        String name = planned.clusterEgress("gw-2").orElseThrow().object().name();
        assertThatEventually("gw-2 gets the next free run of 8 and a slice of its own", () -> {
            assertThat(clusterEgress(client, name).map(o -> o.getStatus() == null ? List.<String>of() : o.getStatus().allocatedIPs()))
                    .contains(List.of("242.254.1.11", "242.254.1.12", "242.254.1.13", "242.254.1.14",
                            "242.254.1.15", "242.254.1.16", "242.254.1.17", "242.254.1.18"));
            assertThat(gatewaySlices(client, "ns1", "db-pods")).containsExactly(
                    new AllocationStatus.GatewaySlice("gw-1", List.of("242.254.1.9", "242.254.1.10")),
                    new AllocationStatus.GatewaySlice("gw-2", List.of("242.254.1.19", "242.254.1.20")));
        });
    }

    /** What a gateway agent does when it becomes active: it holds its own Lease (multiple active gateways) and writes its Gateway object. */
    private void active(String node) {
        client.resources(io.fabric8.kubernetes.api.model.coordination.v1.Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE)
                .resource(new LeaseBuilder().withNewMetadata().withName(LiveObjectsReader.gatewayLease(true, node)).endMetadata()
                        .withNewSpec().withHolderIdentity(node).endSpec().build()).create();
        objects.gateway(node);
    }

    private static List<String> text(List<Ipv4Address> addresses) {
        return addresses.stream().map(Ipv4Address::toString).toList();
    }
}
