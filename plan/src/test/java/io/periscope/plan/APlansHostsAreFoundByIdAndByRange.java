package io.periscope.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's hosts, handed to a plan as an array: sorted by id, found by id, and viewed by range
 * exactly as a {@code TreeMap} of the same hosts would answer.
 */
class APlansHostsAreFoundByIdAndByRange {

    private static HostPlan host(HostId id, HostPlan.HostRole role) {
        return new HostPlan(id, role, Optional.empty(), List.of(), DataplanePlan.EMPTY, DataplanePlan.EMPTY);
    }

    private static List<HostPlan> hosts() {
        List<HostPlan> hosts = new ArrayList<>();
        for (String cluster : List.of("west", "east", "c10", "c2")) {
            for (int i = 9; i >= 0; i--) {
                hosts.add(host(HostId.pod(cluster, "ns" + i % 3, "pod" + i), HostPlan.HostRole.POD));
                hosts.add(host(HostId.node(cluster, "n" + i), HostPlan.HostRole.NODE));
            }
        }
        return hosts;
    }

    @Test
    void theyReadAsATreeMapOfTheSameHosts() {
        List<HostPlan> hosts = hosts();
        TreeMap<HostId, HostPlan> expected = new TreeMap<>();
        hosts.forEach(h -> expected.put(h.id(), h));

        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(hosts.toArray(HostPlan[]::new));

        assertThat(byId).isEqualTo(expected);
        assertThat(List.copyOf(byId.keySet())).isEqualTo(List.copyOf(expected.keySet()));
        assertThat(List.copyOf(byId.values())).isEqualTo(List.copyOf(expected.values()));
        for (HostId id : expected.keySet()) {
            assertThat(byId.get(id)).isSameAs(expected.get(id));
        }
        assertThat(byId.get(HostId.node("west", "n10"))).isNull();
        assertThat(byId.containsKey(HostId.pod("east", "ns1", "pod0"))).isFalse();
        assertThat(byId.firstKey()).isEqualTo(expected.firstKey());
        assertThat(byId.lastKey()).isEqualTo(expected.lastKey());
    }

    @Test
    void aRangeHoldsOnlyItsOwnHosts() {
        TreeMap<HostId, HostPlan> expected = new TreeMap<>();
        hosts().forEach(h -> expected.put(h.id(), h));
        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(hosts().toArray(HostPlan[]::new));
        HostId from = HostId.node("c2", "n5");
        HostId to = HostId.pod("east", "ns0", "pod3");

        SortedMap<HostId, HostPlan> range = byId.subMap(from, to);

        assertThat(range).isEqualTo(expected.subMap(from, to));
        assertThat(List.copyOf(range.keySet())).isEqualTo(List.copyOf(expected.subMap(from, to).keySet()));
        assertThat(range.get(HostId.node("west", "n1"))).isNull();
        assertThat(range.containsKey(HostId.node("c10", "n1"))).isFalse();
        assertThat(range.containsKey(from)).isTrue();
        assertThat(range.containsKey(to)).isFalse();
        assertThat(byId.headMap(to)).isEqualTo(expected.headMap(to));
        assertThat(byId.tailMap(from)).isEqualTo(expected.tailMap(from));
        assertThat(range.tailMap(HostId.node("east", "")).headMap(HostId.node("east", "n3")))
                .isEqualTo(expected.subMap(HostId.node("east", ""), HostId.node("east", "n3")));
    }

    @Test
    void aClusterWhoseHostsComeInAnotherOrderIsSortedToo() {
        List<HostPlan> hosts = new ArrayList<>();
        for (String cluster : List.of("b", "a", "c")) {
            for (int i = 0; i < 12; i++) {
                // Cluster a's names come in the opposite order to b's and c's; the runs are the same length.
                int n = cluster.equals("a") ? 11 - i : (i * 5) % 12;
                hosts.add(host(HostId.node(cluster, "n" + n), HostPlan.HostRole.NODE));
            }
        }
        TreeMap<HostId, HostPlan> expected = new TreeMap<>();
        hosts.forEach(h -> expected.put(h.id(), h));

        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(hosts.toArray(HostPlan[]::new));

        assertThat(List.copyOf(byId.keySet())).isEqualTo(List.copyOf(expected.keySet()));
    }

    @Test
    void aClusterWhoseHostsComeInTwoRunsIsSortedAmongTheOthers() {
        // The planner plans a cluster's hosts together; hosts put in any other order still read as a TreeMap.
        List<HostPlan> hosts = new ArrayList<>();
        for (String cluster : List.of("b", "a", "b", "c", "a")) {
            for (int i = 0; i < 5; i++) {
                hosts.add(host(HostId.node(cluster, "n" + (hosts.size() * 7) % 23), HostPlan.HostRole.NODE));
            }
        }
        TreeMap<HostId, HostPlan> expected = new TreeMap<>();
        hosts.forEach(h -> expected.put(h.id(), h));

        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(hosts.toArray(HostPlan[]::new));

        assertThat(List.copyOf(byId.keySet())).isEqualTo(List.copyOf(expected.keySet()));
        assertThat(List.copyOf(byId.values())).isEqualTo(List.copyOf(expected.values()));
    }

    @Test
    void ofTwoHostsWithOneIdTheLaterIsKept() {
        HostId id = HostId.node("east", "n1");
        HostPlan first = host(id, HostPlan.HostRole.NODE);
        HostPlan later = host(id, HostPlan.HostRole.GATEWAY);

        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(new HostPlan[] {first, host(HostId.node("a", "n"), HostPlan.HostRole.NODE), later});

        assertThat(byId).hasSize(2);
        assertThat(byId.get(id)).isSameAs(later);
    }

    @Test
    void idsOfAGeneratedSetWhoseHashCodesCollideAreLookedUpByCodesOfTheirOwn() {
        // c<k>/ns-<j>/pod-<i>, as the benchmarks' generated sets name their pods: HostId.hashCode
        // gives thousands of them the same code, the look-up's hash one each.
        java.util.Set<Integer> hashCodes = new java.util.HashSet<>();
        java.util.Set<Integer> lookupHashes = new java.util.HashSet<>();
        List<HostPlan> hosts = new ArrayList<>();
        for (int c = 0; c < 10; c++) {
            for (int p = 0; p < 1000; p++) {
                HostId id = HostId.pod("c" + c, "ns-" + p % 10, "pod-" + p);
                hashCodes.add(id.hashCode());
                lookupHashes.add(HostMap.Columns.hash(id));
                hosts.add(host(id, HostPlan.HostRole.POD));
            }
        }
        assertThat(hashCodes).hasSizeLessThan(5000);
        assertThat(lookupHashes).hasSize(10_000);

        SortedMap<HostId, HostPlan> byId = ClusterSetPlan.hostsById(hosts.toArray(HostPlan[]::new));
        for (HostPlan host : hosts) {
            assertThat(byId.get(host.id())).isSameAs(host);
        }
        assertThat(byId.get("c0/ns-0/pod-0")).isNull();
    }
}
