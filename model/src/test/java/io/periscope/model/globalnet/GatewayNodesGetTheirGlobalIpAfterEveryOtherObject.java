package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.GatewayNode;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.periscope.model.globalnet.TopologyFixture.cluster;
import static io.periscope.model.globalnet.TopologyFixture.clusterSet;
import static io.periscope.model.globalnet.TopologyFixture.globalnet;
import static io.periscope.model.globalnet.TopologyFixture.legacyGlobalnet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's node controller gives each active gateway node a global IP of its own (the
 * {@code submariner.io/globalIp} annotation, its Endpoint's healthCheckIP). The IPAM asks for it after
 * every other object, so the addresses seed 004 documents for its Globalnet flow (the exported
 * service at the top of its pool, the ClusterGlobalEgressIPs at the bottom) stay what they are, and
 * the gateways take the next single addresses down from the top.
 */
class GatewayNodesGetTheirGlobalIpAfterEveryOtherObject {

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static GlobalnetAllocations allocate(ClusterSet set) {
        return GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set));
    }

    @Test
    void seed004sAddressesStayAndEachActiveGatewayTakesTheNextFromTheTop() {
        GlobalnetAllocations allocations = allocate(TopologyFixture.magGlobalnet());

        // Seed 004: the imported service is 242.254.2.254, GW-2's ClusterGlobalEgressIPs 242.254.1.1-8 are the lowest block.
        assertThat(allocations.serviceGlobalIp("cluster2", "default", "nginx")).contains(ip("242.254.2.254"));
        assertThat(allocations.clusterEgress("cluster1", "gw-1").orElseThrow().addresses().getFirst()).isEqualTo(ip("242.254.1.1"));
        assertThat(allocations.gatewayNodeIp("cluster1", "gw-1")).contains(ip("242.254.1.254"));
        assertThat(allocations.gatewayNodeIp("cluster1", "gw-2")).contains(ip("242.254.1.253"));
        assertThat(allocations.gatewayNodeIp("cluster2", "gw-3")).contains(ip("242.254.2.253"));
        assertThat(allocations.gatewayNodeIp("cluster2", "gw-4")).contains(ip("242.254.2.252"));
        assertThat(allocations.gatewayNodeIp("cluster1", "worker-1")).isEmpty();

        ClusterGlobalnetAllocations cluster2 = allocations.cluster("cluster2").orElseThrow();
        assertThat(cluster2.allocations().subList(cluster2.allocations().size() - 2, cluster2.allocations().size()))
                .allSatisfy(a -> assertThat(a).isInstanceOf(GatewayNode.class))
                .extracting(GlobalIpAllocation::requester).containsExactly("Node gw-3", "Node gw-4");
        assertThat(cluster2.gatewayNode("gw-3").orElseThrow().condition())
                .isEqualTo(AllocationCondition.success("allocated 1 global IP: 242.254.2.253"));
    }

    @Test
    void onlyTheActiveGatewayOfASingleActiveClusterHasOne() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1")
                        .service("default", "s", "100.0.0.7", Map.of("app", "s")).export("default", "s").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.gatewayNodeIp("c", "gw-a")).contains(ip("242.254.7.253"));
        assertThat(allocations.gatewayNodeIp("c", "gw-b")).isEmpty();
        assertThat(allocations.cluster("c").orElseThrow().allocations()).filteredOn(a -> a instanceof GatewayNode).hasSize(1);
    }

    @Test
    void theGatewayThatTakesTheLeaseAfterAFailureGetsTheSameAddress() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1")
                        .service("default", "s", "100.0.0.7", Map.of("app", "s")).export("default", "s").build());
        ClusterSet survivors = set.withoutNodes(List.of("c/gw-a"));

        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set).cidrs(), survivors);

        assertThat(allocations.gatewayNodeIp("c", "gw-b")).contains(ip("242.254.7.253"));
        assertThat(allocations.gatewayNodeIp("c", "gw-a")).as("upstream's node controller on gw-b released it").isEmpty();
        // Everything else is what the whole set got: nothing is handed out again.
        assertThat(allocations.serviceGlobalIp("c", "default", "s")).isEqualTo(allocate(set).serviceGlobalIp("c", "default", "s"));
    }

    @Test
    void multipleActiveGatewaysKeepTheirsWhenOneFails() {
        ClusterSet set = TopologyFixture.magGlobalnet();

        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set).cidrs(),
                set.withoutNodes(List.of("cluster2/gw-3")));

        assertThat(allocations.gatewayNodeIp("cluster2", "gw-4")).contains(ip("242.254.2.252"));
        assertThat(allocations.gatewayNodeIp("cluster2", "gw-3")).contains(ip("242.254.2.253"));
    }

    @Test
    void withLegacyGlobalnetTheGatewaysOwnIsItsNodesAnnotation() {
        ClusterSet set = clusterSet(legacyGlobalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").gateway("gw", "172.18.1.2", "10.0.0.1").worker("w", "172.18.1.3", "10.0.1.1").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.gatewayNodeIp("c", "gw")).isEqualTo(allocations.legacyNodeIp("c", "gw")).contains(ip("242.254.1.254"));
        assertThat(allocations.cluster("c").orElseThrow().allocations()).noneMatch(a -> a instanceof GatewayNode);
    }
}
