package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/**
 * The status of ClusterGlobalEgressIP and GlobalEgressIP (upstream's {@code GlobalEgressIPStatus}):
 * the {@code Allocated} condition and the addresses held; with per-gateway egress ownership also
 * which gateway holds which.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AllocationStatus(List<Condition> conditions, List<String> allocatedIPs, List<GatewaySlice> gatewaySlices) {

    /** Without per-gateway slices: upstream's status. */
    public AllocationStatus(List<Condition> conditions, List<String> allocatedIPs) {
        this(conditions, allocatedIPs, null);
    }

    public AllocationStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        allocatedIPs = allocatedIPs == null ? List.of() : List.copyOf(allocatedIPs);
        // Absent rather than empty, so that a status without slices reads and compares as upstream's.
        gatewaySlices = gatewaySlices == null || gatewaySlices.isEmpty() ? null : List.copyOf(gatewaySlices);
    }

    /**
     * With per-gateway egress ownership ({@code egress_ownership: per-gateway}): the addresses one
     * active gateway SNATs the object's pods to. {@code allocatedIPs} then holds every slice's.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GatewaySlice(String gateway, List<String> allocatedIPs) {
        public GatewaySlice {
            allocatedIPs = allocatedIPs == null ? List.of() : List.copyOf(allocatedIPs);
        }
    }
}
