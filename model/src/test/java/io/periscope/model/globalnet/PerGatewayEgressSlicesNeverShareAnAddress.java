package io.periscope.model.globalnet;

import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.EgressOwnership;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership on generated cluster sets: every GlobalEgressIP of a cluster with
 * several active gateways gets one slice per gateway, each of the object's size, and no address of
 * a cluster's pool is held twice, whichever objects asked; allocating again from the same objects
 * (a restart, which re-reads and re-allocates) gives the same addresses.
 */
class PerGatewayEgressSlicesNeverShareAnAddress {

    static LongStream seeds() {
        return LongStream.range(1, 41);
    }

    private static ClusterSet perGateway(long seed) {
        ClusterSet generated = RandomClusterSet.generate(seed);
        return generated.withClusters(generated.clusters().stream()
                .map(c -> c.multiActiveGateways() ? c.withEgressOwnership(EgressOwnership.PER_GATEWAY) : c).toList());
    }

    private static GlobalnetAllocations allocate(ClusterSet set) {
        GlobalCidrAssignment cidrs = GlobalCidrAllocator.allocate(set);
        return GlobalnetAllocator.allocate(set, cidrs);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everySliceHasItsSizeAndNoAddressIsHeldTwice(long seed) {
        ClusterSet set = perGateway(seed);
        if (!set.globalnet().enabled()) {
            return;
        }
        GlobalnetAllocations allocations = allocate(set);
        for (Cluster cluster : set.clusters()) {
            ClusterGlobalnetAllocations pool = allocations.cluster(cluster.name()).orElseThrow();
            Set<Ipv4Address> held = new HashSet<>();
            for (GlobalIpAllocation allocation : pool.allocations()) {
                for (Ipv4Address address : allocation.addresses()) {
                    assertThat(held.add(address)).as("%s in %s is held twice", address, cluster.name()).isTrue();
                    assertThat(pool.globalCidr().contains(address)).isTrue();
                }
            }
            for (GlobalEgressIP egress : cluster.globalEgressIPs()) {
                List<GlobalIpAllocation.EgressSlice> slices = pool.egressSlices(egress.namespace(), egress.name());
                if (!cluster.egressPerGateway()) {
                    assertThat(slices).isEmpty();
                    continue;
                }
                assertThat(pool.egress(egress.namespace(), egress.name())).as("no shared allocation beside the slices").isEmpty();
                assertThat(slices).extracting(GlobalIpAllocation.EgressSlice::gateway)
                        .containsExactlyElementsOf(cluster.activeGateways().stream().map(io.periscope.model.topology.Node::name).toList());
                for (GlobalIpAllocation.EgressSlice slice : slices) {
                    if (slice.condition().succeeded()) {
                        assertThat(slice.addresses()).hasSize(egress.numberOfIPs());
                        assertThat(slice.range()).as("an SNAT range").isPresent();
                    }
                }
            }
        }
        assertThat(allocate(set)).as("the same objects give the same addresses after a restart").isEqualTo(allocations);
    }
}
