package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/** The {@code Allocated} condition and the one address an ingress target gets. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GlobalIngressIPStatus(List<Condition> conditions, String allocatedIP) {

    public GlobalIngressIPStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
