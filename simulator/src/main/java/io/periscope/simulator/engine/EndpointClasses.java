package io.periscope.simulator.engine;

import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods that the plan treats alike, as backends: where kube-proxy forks a flow into its endpoints, the
 * branches that DNAT to the pods of one class end alike, so a counting walk may walk one of them and
 * count it for all ({@link EndpointFold}). The caller vouches for the static part: the pods of a class
 * are in one cluster, on one node, and every prefix, ipset, route and interface pattern of the plan
 * holds all of them or none (the reachability matrix's {@code PodTreatment} finds them so). What only
 * a walk can show (a chain that names one of them, a packet carrying one of them out of its cluster)
 * is watched by the fold itself.
 *
 * <p>Built once per plan and read from the walks: immutable once built, but for the count of branches
 * folded with it, which walks on several threads may add to.
 */
public final class EndpointClasses {

    /** Not a pod of any class: a branch that DNATs there is walked on its own. */
    public static final int NONE = -1;

    /** A pod of a class: which one, and its network namespace (with its index in the network last asked for it). */
    static final class Member {

        final int classId;
        final HostId pod;
        private volatile Bound bound;

        private record Bound(CompiledNetwork network, int index) {
        }

        Member(int classId, HostId pod) {
            this.classId = classId;
            this.pod = pod;
        }

        /** The index of the pod's network namespace in {@code network}, -1 when it has none; looked up once per network. */
        int index(CompiledNetwork network) {
            Bound b = bound;
            if (b == null || b.network() != network) {
                b = new Bound(network, network.indexOf(pod));
                bound = b;
            }
            return b.index();
        }
    }

    private final Map<String, Members> byCluster;
    /** Each class's pod addresses, sorted. */
    private final int[][] addresses;
    private final String[] clusters;
    /** The chains of the plan that name a pod of some class, with the addresses they name. */
    private final Map<ChainKey, int[]> naming;
    /** Bits of the hash codes of those chains' names: a chain whose bit is clear names none. */
    private final long[] namingNames = new long[(NAME_FILTER_MASK + 1) / 64];
    private static final int NAME_FILTER_MASK = (1 << 16) - 1;

    private record ChainKey(HostId host, Table table, String chain) {
    }

    private EndpointClasses(Map<String, Members> byCluster, int[][] addresses, String[] clusters, Map<ChainKey, int[]> naming) {
        this.byCluster = byCluster;
        this.addresses = addresses;
        this.clusters = clusters;
        this.naming = naming;
        for (ChainKey key : naming.keySet()) {
            int bit = key.chain().hashCode() & NAME_FILTER_MASK;
            namingNames[bit >>> 6] |= 1L << bit;
        }
    }

    private final java.util.concurrent.atomic.LongAdder folded = new java.util.concurrent.atomic.LongAdder();

    /** {@code branches} branches of forks were counted as another branch of their class instead of walked. */
    public void folded(long branches) {
        folded.add(branches);
    }

    /** How many branches of forks the walks with these classes counted as another of their class instead of walking them. */
    public long folded() {
        return folded.sum();
    }

    /** How many classes there are. */
    public int size() {
        return addresses.length;
    }

    /** The pod of {@code host}'s cluster that has {@code address}, when it is of a class; else null. */
    Member memberOf(HostId host, int address) {
        Members members = byCluster.get(host.cluster());
        return members == null ? null : members.at(address);
    }

    /**
     * A cluster's pods of some class by address: sorted addresses and their members, in the same
     * order. Asked once for each branch of every fork into endpoints, a hundred per service in a big
     * check, where a map of boxed addresses allocated an Integer for each question.
     */
    private record Members(int[] addresses, Member[] members) {

        static Members of(Map<Integer, Member> byAddress) {
            int[] addresses = byAddress.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
            Member[] members = new Member[addresses.length];
            for (int i = 0; i < addresses.length; i++) {
                members[i] = byAddress.get(addresses[i]);
            }
            return new Members(addresses, members);
        }

        Member at(int address) {
            int i = Arrays.binarySearch(addresses, address);
            return i < 0 ? null : members[i];
        }
    }

    /** The cluster of the pods of class {@code classId}. */
    String cluster(int classId) {
        return clusters[classId];
    }

    /** Whether {@code address} is the address of a pod of class {@code classId}. */
    boolean holds(int classId, int address) {
        return Arrays.binarySearch(addresses[classId], address) >= 0;
    }

    /** Whether a rule of {@code chain} on {@code host} names one of {@code addresses} (sorted). */
    boolean names(HostId host, Table table, String chain, int[] addresses) {
        int bit = chain.hashCode() & NAME_FILTER_MASK;
        if ((namingNames[bit >>> 6] & 1L << bit) == 0) {
            return false;
        }
        int[] named = naming.get(new ChainKey(host, table, chain));
        if (named == null) {
            return false;
        }
        for (int a : named) {
            if (Arrays.binarySearch(addresses, a) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Collects the classes and the chains that name their pods. */
    public static final class Builder {

        private final Map<String, Map<Integer, Member>> byCluster = new HashMap<>();
        private final List<int[]> addresses = new ArrayList<>();
        private final List<String> clusters = new ArrayList<>();
        private final Map<ChainKey, int[]> naming = new HashMap<>();

        /**
         * A class of alike pods of {@code cluster}: their network namespaces and addresses, in the same
         * order. A class of fewer than two pods is left out.
         */
        public Builder add(String cluster, List<HostId> pods, int[] podAddresses) {
            if (pods.size() < 2) {
                return this;
            }
            int id = addresses.size();
            Map<Integer, Member> members = byCluster.computeIfAbsent(cluster, c -> new HashMap<>());
            for (int i = 0; i < pods.size(); i++) {
                members.put(podAddresses[i], new Member(id, pods.get(i)));
            }
            int[] sorted = podAddresses.clone();
            Arrays.sort(sorted);
            addresses.add(sorted);
            clusters.add(cluster);
            return this;
        }

        /** Whether {@code address} is the address of a pod of a class added so far, in any cluster. */
        public boolean anyHolds(int address) {
            for (Map<Integer, Member> members : byCluster.values()) {
                if (members.containsKey(address)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code chain} of {@code host} has a rule that names {@code address} (a {@code /32} match, a DNAT to it). */
        public Builder naming(HostId host, Table table, String chain, int address) {
            naming.merge(new ChainKey(host, table, chain), new int[] {address}, (a, b) -> {
                for (int x : a) {
                    if (x == b[0]) {
                        return a;
                    }
                }
                int[] both = Arrays.copyOf(a, a.length + 1);
                both[a.length] = b[0];
                return both;
            });
            return this;
        }

        public EndpointClasses build() {
            Map<String, Members> members = new HashMap<>();
            byCluster.forEach((cluster, byAddress) -> members.put(cluster, Members.of(byAddress)));
            return new EndpointClasses(Map.copyOf(members), addresses.toArray(int[][]::new), clusters.toArray(String[]::new),
                    Map.copyOf(naming));
        }
    }
}
