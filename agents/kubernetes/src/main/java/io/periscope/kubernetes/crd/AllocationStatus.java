package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/**
 * The status of ClusterGlobalEgressIP and GlobalEgressIP (upstream's {@code GlobalEgressIPStatus}):
 * the {@code Allocated} condition and the addresses held.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AllocationStatus(List<Condition> conditions, List<String> allocatedIPs) {

    public AllocationStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        allocatedIPs = allocatedIPs == null ? List.of() : List.copyOf(allocatedIPs);
    }
}
