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
    INVALID_INPUT("InvalidInput");

    private final String upstreamName;

    AllocationReason(String upstreamName) {
        this.upstreamName = upstreamName;
    }

    public String upstreamName() {
        return upstreamName;
    }
}
