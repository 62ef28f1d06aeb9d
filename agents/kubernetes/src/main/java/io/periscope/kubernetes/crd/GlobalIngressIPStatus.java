package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/**
 * The {@code Allocated} condition and the one address an ingress target gets; for a headless pod
 * under per-gateway egress ownership, {@code gateway} names the active gateway that owns the address.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GlobalIngressIPStatus(List<Condition> conditions, String allocatedIP, String gateway) {

    public GlobalIngressIPStatus(List<Condition> conditions, String allocatedIP) {
        this(conditions, allocatedIP, null);
    }

    public GlobalIngressIPStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
