package io.periscope.kubernetes.crd;

/** Names shared by every Submariner resource and by the objects the controllers create. */
public final class SubmarinerApi {

    public static final String GROUP = "submariner.io";
    public static final String VERSION = "v1";

    /** The label on nodes that may run a gateway (upstream's). */
    public static final String GATEWAY_LABEL = "submariner.io/gateway";

    /** Marks objects the Globalnet controller made, so it never deletes one it did not create. */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String GLOBALNET_MANAGER = "periscope-globalnet";

    /** Marks the broker sync's copies of remote objects, so that a cluster can tell its own from theirs. */
    public static final String SYNCED_FROM_BROKER_LABEL = "periscope.io/synced-from-broker";

    /**
     * The first Globalnet design's (seed 000) record of a pod's, node's or exported service's global
     * IP; written by the controller of a cluster whose Cluster object says {@code globalnet_mode: legacy}.
     */
    public static final String GLOBAL_IP_ANNOTATION = "submariner.io/globalIp";

    /** Condition type on ClusterGlobalEgressIP, GlobalEgressIP and GlobalIngressIP. */
    public static final String ALLOCATED_CONDITION = "Allocated";

    /**
     * Condition type on this cluster's own Cluster object: True (reason {@code Allocated} or
     * {@code Preconfigured}) once the broker holds the cluster's GlobalCIDR, False with the reason
     * it was refused ({@code Overlaps}, {@code OutsideGlobalnetCIDR}, {@code InvalidGlobalCIDR},
     * {@code PoolExhausted}, {@code InvalidGlobalnetInfo}).
     */
    public static final String GLOBAL_CIDR_CONDITION = "GlobalCIDRAllocated";

    /** Condition type on a ClusterConnectionPolicies object the agents ignore (False, reason {@code NotTheWellKnownName}). */
    public static final String ACCEPTED_CONDITION = "Accepted";

    private SubmarinerApi() {
    }
}
