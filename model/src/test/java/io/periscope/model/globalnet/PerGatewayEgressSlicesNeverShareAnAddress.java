package io.periscope.model.globalnet;

import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.GlobalEgressIP;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership on generated cluster sets: every GlobalEgressIP of a cluster with
 * several active gateways gets one slice per gateway, each of the object's size, and no address of
 * a cluster's pool is held twice, whichever objects asked. Across a restart, as the Globalnet
 * controller makes one: a new pool takes back every recorded allocation that still stands, slice
 * by slice (a departed gateway's slice and a deleted object's are not taken back), then serves the
 * requests that came meanwhile (a new GlobalEgressIP), and no
 * address ends up with two holders.
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
                if (slices.isEmpty()) {
                    // All or none: an object that did not fit holds nothing and says why, once.
                    assertThat(pool.egress(egress.namespace(), egress.name())).hasValueSatisfying(failed -> {
                        assertThat(failed.condition().succeeded()).isFalse();
                        assertThat(failed.addresses()).isEmpty();
                    });
                    continue;
                }
                assertThat(pool.egress(egress.namespace(), egress.name())).as("no shared allocation beside the slices").isEmpty();
                assertThat(slices).extracting(GlobalIpAllocation.EgressSlice::gateway)
                        .containsExactlyElementsOf(cluster.activeGateways().stream().map(io.periscope.model.topology.Node::name).toList());
                for (GlobalIpAllocation.EgressSlice slice : slices) {
                    assertThat(slice.condition().succeeded()).isTrue();
                    assertThat(slice.addresses()).hasSize(egress.numberOfIPs());
                    assertThat(slice.range()).as("an SNAT range").isPresent();
                }
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aRestartTakesBackWhatStillStandsSliceBySliceAndGivesNoAddressTwice(long seed) {
        ClusterSet before = perGateway(seed);
        if (!before.globalnet().enabled()) {
            return;
        }
        GlobalCidrAssignment cidrs = GlobalCidrAllocator.allocate(before);
        GlobalnetAllocations recorded = GlobalnetAllocator.allocate(before, cidrs);
        ClusterSet after = changedWhileDown(before, new Random(seed));
        GlobalnetAllocations wanted = GlobalnetAllocator.allocate(after, cidrs);

        for (Cluster cluster : after.clusters()) {
            ClusterGlobalnetAllocations old = recorded.cluster(cluster.name()).orElseThrow();
            ClusterGlobalnetAllocations now = wanted.cluster(cluster.name()).orElseThrow();
            Map<String, Integer> stillAsked = new LinkedHashMap<>();
            now.allocations().forEach(a -> stillAsked.put(a.requester(), asked(a)));

            GlobalIpPool pool = new GlobalIpPool(old.globalCidr());
            Map<String, List<Ipv4Address>> restored = new LinkedHashMap<>();
            for (GlobalIpAllocation allocation : old.allocations()) {
                if (!allocation.addresses().isEmpty() && Integer.valueOf(allocation.addresses().size()).equals(stillAsked.get(allocation.requester()))) {
                    assertThat(pool.reserve(allocation.requester(), allocation.addresses())).as("%s taken back in %s", allocation.requester(), cluster.name())
                            .isInstanceOf(AllocationResult.Allocated.class);
                    restored.put(allocation.requester(), allocation.addresses());
                }
            }
            if (cluster.egressPerGateway() && old.allocations().stream().anyMatch(a -> a instanceof GlobalIpAllocation.EgressSlice && !a.addresses().isEmpty())) {
                assertThat(restored.keySet()).as("slices kept over the restart in %s", cluster.name()).anyMatch(r -> r.contains("(slice of gateway "));
            }
            Set<Ipv4Address> held = new HashSet<>();
            restored.values().forEach(held::addAll);
            for (Map.Entry<String, Integer> request : stillAsked.entrySet()) {
                if (restored.containsKey(request.getKey()) || request.getValue() < 1 || request.getValue() > GlobalEgressIP.MAX_IPS) {
                    continue;
                }
                if (pool.allocate(request.getKey(), request.getValue()) instanceof AllocationResult.Allocated allocated) {
                    for (Ipv4Address address : allocated.addresses()) {
                        assertThat(held.add(address)).as("%s given to %s in %s is held already", address, request.getKey(), cluster.name()).isTrue();
                    }
                }
            }
            restored.forEach((requester, addresses) -> addresses.forEach(address ->
                    assertThat(pool.ownerOf(address)).as("%s after the restart", address).contains(requester)));
            assertThat(pool.allocatedCount()).isEqualTo(held.size());
        }
    }

    /** How many addresses the object behind an allocation asks for, whether or not it got them. */
    private static int asked(GlobalIpAllocation allocation) {
        return switch (allocation) {
            case GlobalIpAllocation.ClusterEgress e -> e.object().numGlobalIPs();
            case GlobalIpAllocation.Egress e -> e.object().numberOfIPs();
            case GlobalIpAllocation.EgressSlice e -> e.object().numberOfIPs();
            default -> 1;
        };
    }

    /**
     * What happens while the controller is down: in each cluster the first of two GlobalEgressIPs
     * is deleted (one is always kept, so some slices stand) and a new one asks for 1 to 3 addresses; in a cluster with per-gateway ownership, one
     * of its active gateways goes away half of the time (its slices and cluster egress go with it).
     */
    private static ClusterSet changedWhileDown(ClusterSet set, Random random) {
        List<String> departed = new ArrayList<>();
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            List<GlobalEgressIP> egress = new ArrayList<>(cluster.globalEgressIPs());
            if (egress.size() > 1) {
                egress.removeFirst();
            }
            egress.add(new GlobalEgressIP("added-while-down", "ns1", Optional.empty(), 1 + random.nextInt(3)));
            clusters.add(new Cluster(cluster.name(), cluster.labels(), cluster.podCidrs(), cluster.serviceCidrs(), cluster.globalCidr(), cluster.cni(),
                    cluster.multiActiveGateways(), cluster.clusterEgressIPs(), cluster.loadBalancing(), cluster.nodes(), cluster.pods(),
                    cluster.services(), cluster.exports(), egress, cluster.environment(), cluster.egressOwnership()));
            if (cluster.egressPerGateway() && random.nextBoolean()) {
                departed.add(cluster.name() + "/" + cluster.activeGateways().get(random.nextInt(cluster.activeGateways().size())).name());
            }
        }
        return set.withClusters(clusters).withoutNodes(departed);
    }
}
