package io.periscope.model.globalnet;

/** The reasons upstream Globalnet writes on an object's {@code Allocated} condition. */
public enum AllocationReason {
    /** Every requested address was allocated. */
    SUCCESS("Success"),
    /** The object asked for no addresses, so none were allocated and it has no effect. */
    ZERO_INPUT("ZeroInput"),
    /** The pool had too few free addresses (or no contiguous run long enough). */
    IP_POOL_ALLOCATION_FAILED("IPPoolAllocationFailed"),
    /** The object's request is out of bounds (number of IPs outside 0..20) or unsupported. */
    INVALID_INPUT("InvalidInput"),
    /**
     * The object is not one Globalnet honours: a ClusterGlobalEgressIP other than the cluster's
     * own ({@code cluster-egress.submariner.io}, or one per active gateway), or a GlobalIngressIP
     * that Globalnet did not create.
     */
    INVALID_INSTANCE("InvalidInstance"),
    /**
     * After a restart, the addresses in the object's status could not be taken back (outside the
     * pool, or already restored for an older object); they were dropped and new ones allocated.
     */
    RESERVE_ALLOCATED_IPS_FAILED("ReserveAllocatedIPsFailed");

    private final String upstreamName;

    AllocationReason(String upstreamName) {
        this.upstreamName = upstreamName;
    }

    public String upstreamName() {
        return upstreamName;
    }
}
