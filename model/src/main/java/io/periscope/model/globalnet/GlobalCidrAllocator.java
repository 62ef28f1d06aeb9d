package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetConfig;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The broker's hand-out of global CIDRs. A cluster keeps the globalCIDR it declares; the others get,
 * in cluster order, the lowest aligned block of {@code clusterSize} addresses in the global range
 * that overlaps no declared and no already handed out block. Declared CIDRs are all set aside before
 * any hand-out, so a cluster's position in the file never lets it take a block someone declared.
 *
 * <p>Mistakes are reported as {@link GlobalCidrFailure}s naming the cluster; nothing throws.
 */
public final class GlobalCidrAllocator {

    /** Pools beyond these sizes are refused: larger than {@link GlobalIpPool#SHORTEST_PREFIX}, or with fewer than two usable addresses. */
    static final int LONGEST_PREFIX = 30;
    static final long SMALLEST_BLOCK = 1L << (32 - LONGEST_PREFIX);
    static final long LARGEST_BLOCK = 1L << (32 - GlobalIpPool.SHORTEST_PREFIX);

    private GlobalCidrAllocator() {
    }

    public static GlobalCidrAssignment allocate(ClusterSet clusterSet) {
        return allocate(clusterSet.globalnet(), clusterSet.clusters());
    }

    /** With Globalnet disabled nothing is handed out and declared globalCIDRs are ignored, as upstream's broker does. */
    public static GlobalCidrAssignment allocate(GlobalnetConfig config, List<Cluster> clusters) {
        if (!config.enabled()) {
            return GlobalCidrAssignment.NONE;
        }
        Ipv4Prefix range = config.cidr();
        Map<String, Ipv4Prefix> cidrs = new LinkedHashMap<>();
        List<GlobalCidrFailure> failures = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<Cluster> distinct = new ArrayList<>();
        for (Cluster cluster : clusters) {
            if (names.add(cluster.name())) {
                distinct.add(cluster);
            } else {
                failures.add(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.DUPLICATE_CLUSTER,
                        "a cluster of this name comes earlier in the file", "give every cluster its own name"));
            }
        }

        // Every declared CIDR inside the range is set aside, even one refused for overlapping, so
        // that one mistake does not also push the hand-out around and cause a second, confusing error.
        List<Ipv4Prefix> occupied = new ArrayList<>();
        List<Cluster> declaredBy = new ArrayList<>();
        for (Cluster cluster : distinct) {
            if (cluster.globalCidr().isEmpty()) {
                continue;
            }
            Ipv4Prefix declared = cluster.globalCidr().get();
            Optional<GlobalCidrFailure> failure = checkDeclared(cluster, declared, range, occupied, declaredBy);
            if (range.contains(declared)) {
                occupied.add(declared);
                declaredBy.add(cluster);
            }
            failure.ifPresentOrElse(failures::add, () -> cidrs.put(cluster.name(), declared));
        }

        Optional<String> sizeProblem = clusterSizeProblem(config.clusterSize(), range);
        for (Cluster cluster : distinct) {
            if (cluster.globalCidr().isPresent()) {
                continue;
            }
            if (sizeProblem.isPresent()) {
                failures.add(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.INVALID_CLUSTER_SIZE,
                        "names no globalCIDR, and " + sizeProblem.get(),
                        "set globalnet.clusterSize to a power of two from " + SMALLEST_BLOCK + " to "
                                + Math.min(LARGEST_BLOCK, range.size()) + ", or give the cluster a globalCIDR"));
                continue;
            }
            Optional<Ipv4Prefix> block = lowestFreeBlock(range, config.clusterSize(), occupied);
            if (block.isEmpty()) {
                failures.add(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.GLOBAL_RANGE_EXHAUSTED,
                        "names no globalCIDR, and the global range " + range + " has no free block of "
                                + config.clusterSize() + " addresses left (" + occupied.size()
                                + (occupied.size() == 1 ? " block" : " blocks") + " taken)",
                        "widen globalnet.cidr, lower globalnet.clusterSize, or give the cluster a globalCIDR"));
                continue;
            }
            occupied.add(block.get());
            cidrs.put(cluster.name(), block.get());
        }
        return new GlobalCidrAssignment(inClusterOrder(distinct, cidrs), failures);
    }

    private static Optional<GlobalCidrFailure> checkDeclared(Cluster cluster, Ipv4Prefix declared, Ipv4Prefix range,
                                                             List<Ipv4Prefix> earlier, List<Cluster> earlierClusters) {
        if (!range.contains(declared)) {
            return Optional.of(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.OUTSIDE_GLOBAL_RANGE,
                    "globalCIDR " + declared + " is outside the global range " + range,
                    "choose a globalCIDR inside " + range + ", or remove it to have one handed out"));
        }
        if (declared.length() < GlobalIpPool.SHORTEST_PREFIX || declared.length() > LONGEST_PREFIX) {
            return Optional.of(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.UNSUPPORTED_SIZE,
                    "globalCIDR " + declared + " has prefix length " + declared.length() + ", outside /"
                            + GlobalIpPool.SHORTEST_PREFIX + "../" + LONGEST_PREFIX,
                    "use a prefix length from /" + GlobalIpPool.SHORTEST_PREFIX + " to /" + LONGEST_PREFIX));
        }
        for (int i = 0; i < earlier.size(); i++) {
            if (earlier.get(i).overlaps(declared)) {
                return Optional.of(new GlobalCidrFailure(cluster.name(), GlobalCidrFailure.Kind.OVERLAPS_DECLARED,
                        "globalCIDR " + declared + " overlaps cluster " + earlierClusters.get(i).name()
                                + "'s globalCIDR " + earlier.get(i),
                        "give each cluster a globalCIDR of its own, or remove it to have one handed out"));
            }
        }
        return Optional.empty();
    }

    /**
     * Why {@code clusterSize} blocks cannot be handed out of {@code range}, if they cannot; also the
     * Kubernetes broker sync's check of the broker's Globalnet settings.
     */
    public static Optional<String> clusterSizeProblem(int clusterSize, Ipv4Prefix range) {
        if (clusterSize < SMALLEST_BLOCK || clusterSize > LARGEST_BLOCK || Integer.bitCount(clusterSize) != 1) {
            return Optional.of("globalnet.clusterSize " + clusterSize + " is not a power of two from "
                    + SMALLEST_BLOCK + " to " + LARGEST_BLOCK);
        }
        if (clusterSize > range.size()) {
            return Optional.of("globalnet.clusterSize " + clusterSize + " is larger than the global range " + range);
        }
        return Optional.empty();
    }

    /**
     * Walks aligned candidates upwards; when one collides with a taken block the search resumes at the
     * first aligned address after that block, so the walk costs one step per taken block, not per candidate.
     * The Kubernetes broker sync hands out the same way, from the blocks the broker holds.
     */
    public static Optional<Ipv4Prefix> lowestFreeBlock(Ipv4Prefix range, int clusterSize, List<Ipv4Prefix> occupied) {
        int length = 32 - Integer.numberOfTrailingZeros(clusterSize);
        long candidate = range.first().unsigned();
        long end = range.last().unsigned();
        while (candidate + clusterSize - 1 <= end) {
            long last = candidate + clusterSize - 1;
            Optional<Ipv4Prefix> collision = Optional.empty();
            for (Ipv4Prefix taken : occupied) {
                if (taken.first().unsigned() <= last && candidate <= taken.last().unsigned()) {
                    collision = Optional.of(taken);
                    break;
                }
            }
            if (collision.isEmpty()) {
                return Optional.of(new Ipv4Prefix(new Ipv4Address((int) candidate), length));
            }
            long after = collision.get().last().unsigned() + 1;
            candidate = (after + clusterSize - 1) / clusterSize * clusterSize;
        }
        return Optional.empty();
    }

    private static Map<String, Ipv4Prefix> inClusterOrder(List<Cluster> clusters, Map<String, Ipv4Prefix> cidrs) {
        Map<String, Ipv4Prefix> ordered = new LinkedHashMap<>();
        for (Cluster cluster : clusters) {
            Ipv4Prefix cidr = cidrs.get(cluster.name());
            if (cidr != null) {
                ordered.put(cluster.name(), cidr);
            }
        }
        return ordered;
    }
}
