package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.Gateway;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyNode;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyPod;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyService;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.periscope.model.globalnet.TopologyFixture.cluster;
import static io.periscope.model.globalnet.TopologyFixture.clusterSet;
import static io.periscope.model.globalnet.TopologyFixture.globalnet;
import static io.periscope.model.globalnet.TopologyFixture.legacyGlobalnet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GlobalnetAllocatorTest {

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static List<Ipv4Address> range(String text) {
        return Ipv4Range.parse(text).addresses();
    }

    private static GlobalnetAllocations allocate(ClusterSet clusterSet) {
        GlobalCidrAssignment cidrs = GlobalCidrAllocator.allocate(clusterSet);
        assertThat(cidrs.failures()).isEmpty();
        return GlobalnetAllocator.allocate(clusterSet, cidrs);
    }

    @Test
    void magGlobalnetGivesTheDocumentedAddresses() {
        GlobalnetAllocations allocations = allocate(TopologyFixture.magGlobalnet());

        assertThat(allocations.cluster("cluster1").orElseThrow().globalCidr()).isEqualTo(Ipv4Prefix.parse("242.254.1.0/24"));
        assertThat(allocations.ingressForService("cluster2", "default", "nginx").flatMap(GlobalIpAllocation::address))
                .contains(ip("242.254.2.254"));
        assertThat(allocations.serviceGlobalIp("cluster2", "default", "nginx")).contains(ip("242.254.2.254"));

        ClusterEgress gw1 = allocations.clusterEgress("cluster1", "gw-1").orElseThrow();
        ClusterEgress gw2 = allocations.clusterEgress("cluster1", "gw-2").orElseThrow();
        assertThat(gw1.object().name()).isEqualTo("gw-1-cluster-egress.submariner.io");
        assertThat(gw1.range()).contains(Ipv4Range.parse("242.254.1.1-242.254.1.8"));
        assertThat(gw2.range()).contains(Ipv4Range.parse("242.254.1.9-242.254.1.16"));
        assertThat(gw2.addresses()).isEqualTo(range("242.254.1.9-242.254.1.16"));
        assertThat(gw1.condition()).isEqualTo(AllocationCondition.success("allocated 8 global IPs: 242.254.1.1-242.254.1.8"));

        assertThat(allocations.clusterEgress("cluster2", "gw-3").orElseThrow().range()).contains(Ipv4Range.parse("242.254.2.1-242.254.2.8"));
        assertThat(allocations.clusterEgress("cluster2", "gw-4").orElseThrow().range()).contains(Ipv4Range.parse("242.254.2.9-242.254.2.16"));
        assertThat(allocations.failures()).isEmpty();
    }

    @Test
    void multiActiveGatewaysGiveOneClusterEgressPerGatewayInNodeOrderAndNoneToWorkers() {
        GlobalnetAllocations allocations = allocate(TopologyFixture.magGlobalnet());

        assertThat(allocations.clusterEgress("cluster1")).extracting(e -> e.object().gatewayNode().orElseThrow())
                .containsExactly("gw-1", "gw-2");
        assertThat(allocations.clusterEgress("cluster1", "worker-1")).isEmpty();
        // 8 egress addresses and one global IP of its own per gateway; cluster2 also exports nginx.
        assertThat(allocations.cluster("cluster1").orElseThrow().freeCount()).isEqualTo(254 - 16 - 2);
        assertThat(allocations.cluster("cluster2").orElseThrow().freeCount()).isEqualTo(254 - 17 - 2);
    }

    @Test
    void singleActiveGatewayClusterHasOneClusterEgressForTheWholeCluster() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.7.0/24").gateway("gw-a", "172.18.1.2", "10.0.0.1").gateway("gw-b", "172.18.1.3", "10.0.1.1").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.clusterEgress("c")).singleElement().satisfies(e -> {
            assertThat(e.object().name()).isEqualTo(ClusterGlobalEgressIP.DEFAULT_NAME);
            assertThat(e.object().gatewayNode()).isEmpty();
            assertThat(e.addresses()).isEqualTo(range("242.254.7.1-242.254.7.8"));
        });
        assertThat(allocations.clusterEgress("c", "gw-a")).isEqualTo(allocations.clusterEgress("c").stream().findFirst());
    }

    @Test
    void requestsAreServedClusterEgressFirstThenGlobalEgressIPsThenExportsInOrderThenTheGateway() {
        ClusterSet set = clusterSet(globalnet("242.0.0.0/8", 65536),
                cluster("east").gateway("east-gw", "172.18.2.2", "10.244.0.1")
                        .pod("ns1", "report", "east-gw", "10.244.1.11", Map.of("app", "report"))
                        .pod("ns1", "db-0", "east-gw", "10.244.1.12", Map.of("role", "db"))
                        .namespaceEgress("ns-egressip", "ns1", 1)
                        .podEgress("db-pods", "ns1", Map.of("role", "db"), 2)
                        .service("default", "nginx", "100.0.0.50", Map.of("app", "nginx"))
                        .export("default", "nginx")
                        .build());

        ClusterGlobalnetAllocations east = allocate(set).cluster("east").orElseThrow();

        assertThat(east.globalCidr()).isEqualTo(Ipv4Prefix.parse("242.0.0.0/16"));
        assertThat(east.allocations()).extracting(GlobalIpAllocation::requester).containsExactly(
                "ClusterGlobalEgressIP cluster-egress.submariner.io",
                "GlobalEgressIP ns1/ns-egressip",
                "GlobalEgressIP ns1/db-pods",
                "GlobalIngressIP default/svc-nginx",
                "Gateway east-gw");
        assertThat(east.allocations()).extracting(GlobalIpAllocation::addresses).containsExactly(
                range("242.0.0.1-242.0.0.8"),
                List.of(ip("242.0.255.254")),
                range("242.0.0.9-242.0.0.10"),
                List.of(ip("242.0.255.253")),
                List.of(ip("242.0.255.252")));
    }

    @Test
    void zeroNumberOfIPsAllocatesNothingWithReasonZeroInput() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").clusterEgressIPs(0).gateway("gw", "172.18.1.2", "10.0.0.1")
                        .namespaceEgress("none", "ns1", 0).build());

        GlobalnetAllocations allocations = allocate(set);

        Egress none = allocations.egress("c", "ns1", "none").orElseThrow();
        assertThat(none.addresses()).isEmpty();
        assertThat(none.range()).isEmpty();
        assertThat(none.condition().reason()).isEqualTo(AllocationReason.ZERO_INPUT);
        assertThat(none.condition().status()).isEqualTo(AllocationCondition.Status.FALSE);
        assertThat(none.condition().type()).isEqualTo("Allocated");
        assertThat(allocations.clusterEgress("c", "gw").orElseThrow().condition().reason()).isEqualTo(AllocationReason.ZERO_INPUT);
        // Only the gateway's own global IP was taken.
        assertThat(allocations.cluster("c").orElseThrow().freeCount()).isEqualTo(253);
    }

    @Test
    void numberOfIPsOutsideZeroToTwentyIsInvalidInput() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").clusterEgressIPs(21).gateway("gw", "172.18.1.2", "10.0.0.1")
                        .namespaceEgress("many", "ns1", 21).namespaceEgress("negative", "ns1", -1).build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.cluster("c").orElseThrow().allocations()).filteredOn(a -> !(a instanceof Gateway))
                .allSatisfy(a -> {
                    assertThat(a.condition().reason()).isEqualTo(AllocationReason.INVALID_INPUT);
                    assertThat(a.condition().message()).startsWith(a.requester()).contains("0..20");
                    assertThat(a.addresses()).isEmpty();
                })
                .hasSize(3);
    }

    @Test
    void exhaustionReportsIPPoolAllocationFailedNamingTheObjectAndTheCounts() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("small").globalCidr("242.254.1.0/29").clusterEgressIPs(4).gateway("gw", "172.18.1.2", "10.0.0.1")
                        .namespaceEgress("big", "ns1", 3)
                        .pod("default", "a-0", "gw", "10.0.0.5", Map.of("app", "a"))
                        .service("default", "a", "100.0.0.1", Map.of("app", "a"))
                        .service("default", "b", "100.0.0.2", Map.of("app", "b"))
                        .service("default", "c", "100.0.0.3", Map.of("app", "c"))
                        .export("default", "a").export("default", "b").export("default", "c")
                        .build());

        GlobalnetAllocations allocations = allocate(set);

        Egress big = allocations.egress("small", "ns1", "big").orElseThrow();
        assertThat(big.condition().reason()).isEqualTo(AllocationReason.IP_POOL_ALLOCATION_FAILED);
        assertThat(big.condition().message()).startsWith("GlobalEgressIP ns1/big").contains("3 addresses").contains("only 2 free");
        assertThat(allocations.serviceGlobalIp("small", "default", "a")).contains(ip("242.254.1.6"));
        assertThat(allocations.serviceGlobalIp("small", "default", "b")).contains(ip("242.254.1.5"));
        Ingress c = allocations.ingressForService("small", "default", "c").orElseThrow();
        assertThat(c.addresses()).isEmpty();
        assertThat(c.condition().reason()).isEqualTo(AllocationReason.IP_POOL_ALLOCATION_FAILED);
        assertThat(c.condition().message()).startsWith("GlobalIngressIP default/svc-c").contains("only 0 free");
        // The gateway's own global IP comes last and finds the pool empty too: reported on the node.
        Gateway gw = allocations.cluster("small").orElseThrow().gateway("gw").orElseThrow();
        assertThat(gw.condition().reason()).isEqualTo(AllocationReason.IP_POOL_ALLOCATION_FAILED);
        assertThat(gw.condition().message()).startsWith("Gateway gw").contains("only 0 free");
        assertThat(allocations.failures()).containsExactly(big, c, gw);
    }

    @Test
    void headlessServicePodsEachGetOneIngressIpInPodOrder() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("west").globalCidr("242.254.2.0/24").gateway("gw", "172.18.1.2", "10.0.0.1")
                        .pod("myproject", "http-1", "gw", "10.0.0.21", Map.of("app", "http"))
                        .pod("myproject", "other", "gw", "10.0.0.22", Map.of("app", "other"))
                        .hostNetworkPod("myproject", "http-host", "gw", "172.18.1.2", Map.of("app", "http"))
                        .pod("elsewhere", "http-x", "gw", "10.0.0.23", Map.of("app", "http"))
                        .pod("myproject", "http-0", "gw", "10.0.0.20", Map.of("app", "http"))
                        .headlessService("myproject", "http", Map.of("app", "http"))
                        .export("myproject", "http")
                        .build());

        GlobalnetAllocations allocations = allocate(set);

        List<Ingress> ingress = allocations.cluster("west").orElseThrow().ingress();
        assertThat(ingress).extracting(i -> i.object().name()).containsExactly("pod-http-1", "pod-http-0");
        assertThat(ingress).allSatisfy(i -> {
            assertThat(i.object().target()).isEqualTo(GlobalIngressTarget.HEADLESS_SERVICE_POD);
            assertThat(i.object().serviceName()).isEqualTo("http");
        });
        assertThat(allocations.ingressForPod("west", "myproject", "http-1").flatMap(GlobalIpAllocation::address)).contains(ip("242.254.2.254"));
        assertThat(allocations.ingressForPod("west", "myproject", "http-0").flatMap(GlobalIpAllocation::address)).contains(ip("242.254.2.253"));
        assertThat(allocations.ingressForPod("west", "myproject", "http-host")).isEmpty();
        assertThat(allocations.ingressForService("west", "myproject", "http")).isEmpty();
    }

    @Test
    void podBehindTwoExportedHeadlessServicesGetsOneIngressIp() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("west").globalCidr("242.254.2.0/24").gateway("gw", "172.18.1.2", "10.0.0.1")
                        .pod("ns", "db-0", "gw", "10.0.0.20", Map.of("app", "db", "tier", "data"))
                        .headlessService("ns", "db", Map.of("app", "db"))
                        .headlessService("ns", "data", Map.of("tier", "data"))
                        .export("ns", "db").export("ns", "data")
                        .build());

        List<Ingress> ingress = allocate(set).cluster("west").orElseThrow().ingress();

        assertThat(ingress).singleElement().satisfies(i -> assertThat(i.object().serviceName()).isEqualTo("db"));
    }

    @Test
    void exportOfAMissingServiceIsInvalidInput() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").gateway("gw", "172.18.1.2", "10.0.0.1").export("default", "ghost").build());

        Ingress ghost = allocate(set).ingressForService("c", "default", "ghost").orElseThrow();

        assertThat(ghost.condition().reason()).isEqualTo(AllocationReason.INVALID_INPUT);
        assertThat(ghost.condition().message()).contains("default/ghost").contains("does not exist");
    }

    @Test
    void legacyGivesServicesThenPodsThenNodesSingleAddressesFromTheTop() {
        ClusterSet set = clusterSet(legacyGlobalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").gateway("gw", "172.18.1.2", "10.0.0.1").worker("w", "172.18.1.3", "10.0.1.1")
                        .pod("default", "web", "w", "10.0.1.10", Map.of("app", "web"))
                        .hostNetworkPod("kube-system", "agent", "w", "172.18.1.3", Map.of("app", "agent"))
                        .pod("default", "api", "w", "10.0.1.11", Map.of("app", "api"))
                        .service("default", "api", "100.0.0.9", Map.of("app", "api"))
                        .headlessService("default", "web", Map.of("app", "web"))
                        .export("default", "api").export("default", "web")
                        .namespaceEgress("ignored", "default", 2)
                        .build());

        GlobalnetAllocations allocations = allocate(set);
        ClusterGlobalnetAllocations c = allocations.cluster("c").orElseThrow();

        assertThat(c.clusterEgress()).isEmpty();
        assertThat(allocations.serviceGlobalIp("c", "default", "api")).contains(ip("242.254.1.254"));
        assertThat(allocations.legacyPodIp("c", "default", "web")).contains(ip("242.254.1.253"));
        assertThat(allocations.legacyPodIp("c", "default", "api")).contains(ip("242.254.1.252"));
        assertThat(allocations.legacyPodIp("c", "kube-system", "agent")).isEmpty();
        assertThat(allocations.legacyNodeIp("c", "gw")).contains(ip("242.254.1.251"));
        assertThat(allocations.legacyNodeIp("c", "w")).contains(ip("242.254.1.250"));
        assertThat(c.legacyService("default", "web").orElseThrow().condition().reason()).isEqualTo(AllocationReason.INVALID_INPUT);
        assertThat(allocations.egress("c", "default", "ignored").orElseThrow().condition().reason()).isEqualTo(AllocationReason.INVALID_INPUT);
        assertThat(c.allocations()).extracting(a -> a.getClass().getSimpleName()).containsExactly(
                "LegacyService", "LegacyService", "LegacyPod", "LegacyPod", "LegacyNode", "LegacyNode", "Egress");
        assertThat(c.allocations()).filteredOn(a -> a instanceof LegacyPod || a instanceof LegacyNode || a instanceof LegacyService)
                .filteredOn(a -> a.condition().succeeded()).hasSize(5);
    }

    @Test
    void sameClusterSetGivesTheSameAllocations() {
        ClusterSet set = TopologyFixture.magGlobalnet();

        assertThat(allocate(set)).isEqualTo(allocate(set));
    }

    @Test
    void handedOutCidrsFeedTheAllocator() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("a").gateway("gw-a", "172.18.1.2", "10.0.0.1").build(),
                cluster("b").gateway("gw-b", "172.18.2.2", "10.0.0.1").service("default", "s", "100.0.0.7", Map.of("app", "s"))
                        .export("default", "s").build());

        GlobalnetAllocations allocations = allocate(set);

        assertThat(allocations.clusterEgress("a", "gw-a").orElseThrow().range()).contains(Ipv4Range.parse("242.254.0.1-242.254.0.8"));
        assertThat(allocations.serviceGlobalIp("b", "default", "s")).contains(ip("242.254.1.254"));
    }

    @Test
    void disabledGlobalnetAllocatesNothing() {
        ClusterSet set = clusterSet(GlobalnetConfig.DISABLED, cluster("a").gateway("gw", "172.18.1.2", "10.0.0.1").build());

        assertThat(GlobalnetAllocator.allocate(set, Map.of())).isEqualTo(GlobalnetAllocations.NONE);
    }

    @Test
    void clusterWithoutGlobalCidrIsAProgrammingErrorNamingIt() {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256), cluster("orphan").gateway("gw", "172.18.1.2", "10.0.0.1").build());

        assertThatThrownBy(() -> GlobalnetAllocator.allocate(set, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orphan");
    }

    @Test
    void lookupsOfUnknownClustersOrObjectsAreEmpty() {
        GlobalnetAllocations allocations = allocate(TopologyFixture.magGlobalnet());

        assertThat(allocations.clusterEgress("nowhere")).isEmpty();
        assertThat(allocations.clusterEgress("nowhere", "gw-1")).isEmpty();
        assertThat(allocations.egress("cluster1", "default", "none")).isEmpty();
        assertThat(allocations.ingressForService("cluster1", "default", "nginx")).isEmpty();
        assertThat(allocations.legacyPodIp("cluster1", "default", "client")).isEmpty();
    }

    @Test
    void legacyEntriesAreTypedByWhatTheyAnnotate() {
        ClusterSet set = clusterSet(legacyGlobalnet("242.254.0.0/16", 256),
                cluster("c").globalCidr("242.254.1.0/24").gateway("gw", "172.18.1.2", "10.0.0.1").build());

        List<GlobalIpAllocation> entries = allocate(set).cluster("c").orElseThrow().allocations();

        assertThat(entries).singleElement().isInstanceOfSatisfying(LegacyNode.class,
                n -> assertThat(n.node().name()).isEqualTo("gw"));
        assertThat(entries).noneMatch(e -> e instanceof LegacyService);
    }
}
