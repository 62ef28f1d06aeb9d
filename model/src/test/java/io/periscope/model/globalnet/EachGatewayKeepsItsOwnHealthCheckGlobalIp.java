package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.Gateway;
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
 * Upstream (0.18 on) gives each gateway a global IP of its own on its Gateway object (the
 * {@code submariner.io/globalIp} annotation, its Endpoint's healthCheckIP), from the Gateway
 * controller it starts after every other: the addresses seed 004 documents for its Globalnet flow
 * (the exported service at the top of its pool, the ClusterGlobalEgressIPs at the bottom) stay what
 * they are, and the gateways take the next single addresses down from the top. The address is the
 * gateway's, not the cluster's: a failed gateway keeps its own, and the gateway that takes over gets
 * another.
 */
class EachGatewayKeepsItsOwnHealthCheckGlobalIp {

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
        assertThat(allocations.gatewayGlobalIp("cluster1", "gw-1")).contains(ip("242.254.1.254"));
        assertThat(allocations.gatewayGlobalIp("cluster1", "gw-2")).contains(ip("242.254.1.253"));
        assertThat(allocations.gatewayGlobalIp("cluster2", "gw-3")).contains(ip("242.254.2.253"));
        assertThat(allocations.gatewayGlobalIp("cluster2", "gw-4")).contains(ip("242.254.2.252"));
        assertThat(allocations.gatewayGlobalIp("cluster1", "worker-1")).isEmpty();

        ClusterGlobalnetAllocations cluster2 = allocations.cluster("cluster2").orElseThrow();
        assertThat(cluster2.allocations().subList(cluster2.allocations().size() - 2, cluster2.allocations().size()))
                .allSatisfy(a -> assertThat(a).isInstanceOf(Gateway.class))
                .extracting(GlobalIpAllocation::requester).containsExactly("Gateway gw-3", "Gateway gw-4");
        assertThat(cluster2.gateway("gw-3").orElseThrow().condition())
                .isEqualTo(AllocationCondition.success("allocated 1 global IP: 242.254.2.253"));
    }

    @Test
    void onlyTheActiveGatewayOfASingleActiveClusterHasOne() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1")
                        .service("default", "s", "100.0.0.7", Map.of("app", "s")).export("default", "s").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.gatewayGlobalIp("c", "gw-a")).contains(ip("242.254.7.253"));
        assertThat(allocations.gatewayGlobalIp("c", "gw-b")).isEmpty();
        assertThat(allocations.cluster("c").orElseThrow().allocations()).filteredOn(a -> a instanceof Gateway).hasSize(1);
    }

    @Test
    void theGatewayThatTakesTheLeaseAfterAFailureGetsAnAddressOfItsOwn() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1")
                        .service("default", "s", "100.0.0.7", Map.of("app", "s")).export("default", "s").build());
        ClusterSet survivors = set.withoutNodes(List.of("c/gw-a"));

        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set).cidrs(), survivors);

        assertThat(allocations.gatewayGlobalIp("c", "gw-b")).contains(ip("242.254.7.252"));
        assertThat(allocations.gatewayGlobalIp("c", "gw-a")).as("the failed gateway's Gateway object still holds it").contains(ip("242.254.7.253"));
        assertThat(allocations.cluster("c").orElseThrow().allocations()).filteredOn(a -> a instanceof Gateway)
                .extracting(GlobalIpAllocation::requester).containsExactly("Gateway gw-a", "Gateway gw-b");
        // Everything else is what the whole set got: nothing is handed out again.
        assertThat(allocations.serviceGlobalIp("c", "default", "s")).isEqualTo(allocate(set).serviceGlobalIp("c", "default", "s"));
    }

    @Test
    void failingANodeThatIsNoActiveGatewayChangesNoGatewaysAddress() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1")
                        .worker("w", "172.18.1.4", "10.0.2.1").build());

        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set).cidrs(),
                set.withoutNodes(List.of("c/gw-b", "c/w")));

        assertThat(allocations).isEqualTo(allocate(set));
        assertThat(allocations.gatewayGlobalIp("c", "gw-a")).contains(ip("242.254.7.254"));
    }

    @Test
    void multipleActiveGatewaysKeepTheirsWhenOneFails() {
        ClusterSet set = TopologyFixture.magGlobalnet();

        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set).cidrs(),
                set.withoutNodes(List.of("cluster2/gw-3")));

        assertThat(allocations.gatewayGlobalIp("cluster2", "gw-4")).contains(ip("242.254.2.252"));
        assertThat(allocations.gatewayGlobalIp("cluster2", "gw-3")).contains(ip("242.254.2.253"));
    }

    @Test
    void withLegacyGlobalnetTheGatewaysOwnIsItsNodesAnnotation() {
        ClusterSet set = clusterSet(legacyGlobalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").gateway("gw", "172.18.1.2", "10.0.0.1").worker("w", "172.18.1.3", "10.0.1.1").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.gatewayGlobalIp("c", "gw")).isEqualTo(allocations.legacyNodeIp("c", "gw")).contains(ip("242.254.1.254"));
        assertThat(allocations.cluster("c").orElseThrow().allocations()).noneMatch(a -> a instanceof Gateway);
    }
}
