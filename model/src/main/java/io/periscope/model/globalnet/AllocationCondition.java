package io.periscope.model.globalnet;

import io.periscope.model.topology.GlobalEgressIP;

/**
 * A Kubernetes status condition as Globalnet writes it on ClusterGlobalEgressIP, GlobalEgressIP and
 * GlobalIngressIP: type {@code Allocated}, True only with reason {@code Success}.
 */
public record AllocationCondition(String type, Status status, AllocationReason reason, String message) {

    public static final String ALLOCATED = "Allocated";

    /** metav1.ConditionStatus. */
    public enum Status {
        TRUE("True"), FALSE("False");

        private final String upstreamName;

        Status(String upstreamName) {
            this.upstreamName = upstreamName;
        }

        public String upstreamName() {
            return upstreamName;
        }
    }

    public static AllocationCondition success(String message) {
        return new AllocationCondition(ALLOCATED, Status.TRUE, AllocationReason.SUCCESS, message);
    }

    public static AllocationCondition failure(AllocationReason reason, String message) {
        if (reason == AllocationReason.SUCCESS) {
            throw new IllegalArgumentException("a failed allocation cannot have reason " + reason.upstreamName());
        }
        return new AllocationCondition(ALLOCATED, Status.FALSE, reason, message);
    }

    public boolean succeeded() {
        return status == Status.TRUE;
    }
}
