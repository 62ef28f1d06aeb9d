package io.periscope.model.globalnet;

/**
 * Why the broker could not give a cluster its global CIDR. The loader turns each one into a
 * {@code TopologyError} at the cluster's {@code globalCIDR} (or at {@code globalnet.clusterSize} for
 * {@link Kind#INVALID_CLUSTER_SIZE}).
 *
 * @param cluster the cluster left without a global CIDR
 * @param problem what is wrong, naming the values involved
 * @param fix     what the user can change
 */
public record GlobalCidrFailure(String cluster, Kind kind, String problem, String fix) {

    public enum Kind {
        /** The declared globalCIDR is not inside {@code globalnet.cidr}. */
        OUTSIDE_GLOBAL_RANGE,
        /** The declared globalCIDR overlaps one an earlier cluster declared. */
        OVERLAPS_DECLARED,
        /** The declared globalCIDR is larger than a /8 or smaller than a /30. */
        UNSUPPORTED_SIZE,
        /** The cluster names no globalCIDR and {@code globalnet.clusterSize} cannot be handed out. */
        INVALID_CLUSTER_SIZE,
        /** The cluster names no globalCIDR and no free block of clusterSize is left in the global range. */
        GLOBAL_RANGE_EXHAUSTED,
        /** Another cluster of the same name came earlier. */
        DUPLICATE_CLUSTER
    }

    /** {@code cluster X: problem (fix)} on one line. */
    public String describe() {
        return "cluster " + cluster + ": " + problem + " (" + fix + ")";
    }
}
