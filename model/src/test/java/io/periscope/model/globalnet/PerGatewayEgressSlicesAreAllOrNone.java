package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.GlobalEgressIP;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.periscope.model.globalnet.TopologyFixture.cluster;
import static io.periscope.model.globalnet.TopologyFixture.clusterSet;
import static io.periscope.model.globalnet.TopologyFixture.globalnet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership asks the pool for one slice per active gateway, and gives a
 * GlobalEgressIP all of them or none, as the Kubernetes Globalnet controller does: a gateway whose
 * pods have no slice would SNAT them to nothing, so half an allocation is no allocation. The object
 * that did not fit says how many addresses it needs in all and how many are missing, and what it
 * would have held stays free for the objects after it.
 */
class PerGatewayEgressSlicesAreAllOrNone {

    /**
     * A /27 (30 addresses) with 3 active gateways of 8 cluster egress IPs each: 6 left for the
     * GlobalEgressIPs, then for the gateways' own global IPs, which are asked for last.
     */
    private static ClusterSet smallPool(int firstNeedsPerGateway, int secondNeedsPerGateway) {
        ClusterSet set = clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("east").globalCidr("242.254.1.0/27").multiActiveGateways().clusterEgressIPs(8)
                        .gateway("gw-1", "172.18.0.6", "10.0.0.1")
                        .gateway("gw-2", "172.18.0.8", "10.0.64.1")
                        .gateway("gw-3", "172.18.0.7", "10.0.32.1")
                        .worker("worker", "172.18.0.10", "10.0.128.1")
                        .pod("ns1", "report", "worker", "10.0.128.4", Map.of("app", "report"))
                        .namespaceEgress("ns-egressip", "ns1", firstNeedsPerGateway)
                        .podEgress("reports", "ns1", Map.of("app", "report"), secondNeedsPerGateway)
                        .build());
        return set.withClusters(set.clusters().stream().map(c -> c.withEgressOwnership(EgressOwnership.PER_GATEWAY)).toList());
    }

    private static ClusterGlobalnetAllocations allocate(ClusterSet set) {
        return GlobalnetAllocator.allocate(set, GlobalCidrAllocator.allocate(set)).cluster("east").orElseThrow();
    }

    @Test
    void anObjectThePoolCannotGiveEverySliceGetsNoneAndSaysWhatItNeedsInAll() {
        ClusterGlobalnetAllocations east = allocate(smallPool(3, 2));

        assertThat(east.egressSlices("ns1", "ns-egressip")).as("no slice of an object that does not fit").isEmpty();
        GlobalIpAllocation.Egress failed = east.egress("ns1", "ns-egressip").orElseThrow();
        assertThat(failed.addresses()).isEmpty();
        assertThat(failed.condition().reason()).isEqualTo(AllocationReason.IP_POOL_ALLOCATION_FAILED);
        assertThat(failed.condition().message()).startsWith("GlobalEgressIP ns1/ns-egressip needs 9 global IPs")
                .contains("3 for each of its 3 active gateways (gw-1, gw-2, gw-3)", "has only 6 free (3 missing)");
        assertThat(egressFailures(east)).containsExactly(failed);

        // What the first object would have held half of is free for the next, which fits exactly.
        List<GlobalIpAllocation.EgressSlice> next = east.egressSlices("ns1", "reports");
        assertThat(next).extracting(GlobalIpAllocation.EgressSlice::gateway).containsExactly("gw-1", "gw-2", "gw-3");
        assertThat(next).allSatisfy(slice -> assertThat(slice.addresses()).hasSize(2));
        assertThat(next.getFirst().addresses().getFirst()).isEqualTo(Ipv4Address.parse("242.254.1.25"));
        assertThat(east.freeCount()).isZero();
        assertGatewaysFoundThePoolEmpty(east);
    }

    /** The failures of the egress objects; the gateway nodes', which come after them, are asserted apart. */
    private static List<GlobalIpAllocation> egressFailures(ClusterGlobalnetAllocations east) {
        return east.failures().stream().filter(f -> !(f instanceof GlobalIpAllocation.Gateway)).toList();
    }

    private static void assertGatewaysFoundThePoolEmpty(ClusterGlobalnetAllocations east) {
        assertThat(east.allocations()).filteredOn(a -> a instanceof GlobalIpAllocation.Gateway)
                .extracting(a -> a.requester() + ": " + a.condition().reason())
                .containsExactly("Gateway gw-1: " + AllocationReason.IP_POOL_ALLOCATION_FAILED, "Gateway gw-2: " + AllocationReason.IP_POOL_ALLOCATION_FAILED,
                        "Gateway gw-3: " + AllocationReason.IP_POOL_ALLOCATION_FAILED);
    }

    @Test
    void objectsThatFitGetEverySliceAndThePoolCountsThemAll() {
        ClusterGlobalnetAllocations east = allocate(smallPool(1, 1));

        assertThat(egressFailures(east)).isEmpty();
        assertThat(east.egress("ns1", "ns-egressip")).isEmpty();
        assertThat(east.egressSlices("ns1", "ns-egressip")).hasSize(3).allSatisfy(s -> assertThat(s.condition().succeeded()).isTrue());
        assertThat(east.freeCount()).isZero();
        assertGatewaysFoundThePoolEmpty(east);
    }

    @Test
    void aNumberOutOfBoundsIsOneFailureOfTheObjectNotOnePerSlice() {
        ClusterGlobalnetAllocations east = allocate(smallPool(0, 21));

        assertThat(east.egressSlices("ns1", "ns-egressip")).isEmpty();
        assertThat(east.egressSlices("ns1", "reports")).isEmpty();
        assertThat(east.failures()).extracting(f -> f.requester() + ": " + f.condition().reason())
                .containsExactly("GlobalEgressIP ns1/ns-egressip: " + AllocationReason.ZERO_INPUT, "GlobalEgressIP ns1/reports: " + AllocationReason.INVALID_INPUT);
        // The 6 left over, less one global IP of its own per gateway.
        assertThat(east.freeCount()).isEqualTo(3);
        assertThat(east.gatewayGlobalIp("gw-1")).contains(Ipv4Address.parse("242.254.1.30"));
        assertThat(east.gatewayGlobalIp("gw-3")).contains(Ipv4Address.parse("242.254.1.28"));
    }
}
