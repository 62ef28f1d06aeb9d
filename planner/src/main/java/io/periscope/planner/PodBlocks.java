package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.plan.Names;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The pod address blocks a routed CNI gives each node. The topology file names each node's CNI
 * address and its pods but no per-node pod CIDR, so the block is derived: the largest aligned
 * prefix around the node's CNI address (inside a pod CIDR, smaller than it when there are several
 * nodes) that holds no other node's CNI address or pods. Pods outside their node's block get a /32
 * of their own. Routing blocks instead of every pod keeps a node's table small.
 */
final class PodBlocks {

    private PodBlocks() {
    }

    static Map<String, List<Ipv4Prefix>> of(Cluster cluster) {
        Map<String, List<Ipv4Address>> ownedBy = ownedBy(cluster);
        long[] all = sortedOwned(ownedBy);
        Map<String, List<Ipv4Prefix>> blocks = new LinkedHashMap<>();
        for (Node node : cluster.nodes()) {
            blocks.put(node.name(), blocksOf(cluster, node, ownedBy.get(node.name()), all));
        }
        return blocks;
    }

    /**
     * The addresses each node owns: its CNI address and its pods'. The loops over the pods are
     * methods of their own: a cluster's 2,000 pods in the same method as the blocks had the JIT
     * compile that method on the stack, with all it calls, in the middle of the plans.
     */
    private static Map<String, List<Ipv4Address>> ownedBy(Cluster cluster) {
        Map<String, List<Ipv4Address>> ownedBy = new LinkedHashMap<>();
        for (Node node : cluster.nodes()) {
            List<Ipv4Address> owned = new ArrayList<>();
            owned.add(node.cniIp());
            if (cluster.cni() == Cni.OVN_KUBERNETES) {
                // The node's port on ovn_cluster_router, its pods' gateway, is in its block too.
                owned.add(Names.ovnRouterPortIp(node.cniIp()));
            }
            ownedBy.put(node.name(), owned);
        }
        for (Pod pod : cluster.pods()) {
            List<Ipv4Address> owned = ownedBy.get(pod.node());
            if (!pod.hostNetwork() && owned != null) {
                owned.add(pod.ip());
            }
        }
        return ownedBy;
    }

    /** Every owned address of the cluster, unsigned and sorted. */
    private static long[] sortedOwned(Map<String, List<Ipv4Address>> ownedBy) {
        // Without streams, candidate prefixes or a set per node: a large set derives 5,000 blocks.
        int count = 0;
        for (List<Ipv4Address> owned : ownedBy.values()) {
            count += owned.size();
        }
        long[] all = new long[count];
        int filled = 0;
        for (List<Ipv4Address> owned : ownedBy.values()) {
            for (int i = 0; i < owned.size(); i++) {
                all[filled++] = owned.get(i).unsigned();
            }
        }
        Arrays.sort(all);
        return all;
    }

    /** One node's blocks: a method of its own, so that the JIT compiles it whole rather than on the stack of the loop over nodes. */
    private static List<Ipv4Prefix> blocksOf(Cluster cluster, Node node, List<Ipv4Address> owned, long[] all) {
        long[] mine = sortedUnsigned(owned);
        Ipv4Prefix block = largestBlock(cluster, node, all, mine);
        boolean allInBlock = block != null;
        for (int i = 0; i < owned.size() && allInBlock; i++) {
            allInBlock = block.contains(owned.get(i));
        }
        if (allInBlock) {
            return List.of(block);
        }
        LinkedHashSet<Ipv4Prefix> nodeBlocks = new LinkedHashSet<>();
        if (block != null) {
            nodeBlocks.add(block);
        }
        for (Ipv4Address ip : owned) {
            if (block == null || !block.contains(ip)) {
                nodeBlocks.add(Ipv4Prefix.host(ip));
            }
        }
        return List.copyOf(nodeBlocks);
    }

    private static Ipv4Prefix largestBlock(Cluster cluster, Node node, long[] all, long[] mine) {
        Ipv4Prefix podCidr = null;
        for (Ipv4Prefix cidr : cluster.podCidrs()) {
            if (cidr.contains(node.cniIp())) {
                podCidr = cidr;
                break;
            }
        }
        if (podCidr == null) {
            return null;
        }
        int start = cluster.nodes().size() > 1 ? Math.min(32, podCidr.length() + 1) : podCidr.length();
        int address = node.cniIp().bits();
        for (int length = start; length <= 32; length++) {
            // The candidate prefix's first and last addresses, unsigned.
            int mask = length == 0 ? 0 : -1 << (32 - length);
            long first = (address & mask) & 0xffffffffL;
            long last = first | (~mask & 0xffffffffL);
            // Clean when every owned address inside the candidate is this node's own.
            if (countIn(all, first, last) == countIn(mine, first, last)) {
                return Ipv4Prefix.containing(node.cniIp(), length);
            }
        }
        return null;
    }

    private static long[] sortedUnsigned(List<Ipv4Address> addresses) {
        long[] values = new long[addresses.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = addresses.get(i).unsigned();
        }
        Arrays.sort(values);
        return values;
    }

    /** How many of the sorted values lie in [first, last]; duplicates count once per occurrence. */
    private static int countIn(long[] sorted, long first, long last) {
        return lowerBound(sorted, last + 1) - lowerBound(sorted, first);
    }

    private static int lowerBound(long[] sorted, long value) {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sorted[mid] < value) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
