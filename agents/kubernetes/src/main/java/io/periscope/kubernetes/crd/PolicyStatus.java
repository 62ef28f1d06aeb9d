package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/**
 * The status of a ClusterConnectionPolicies object: the {@value SubmarinerApi#ACCEPTED_CONDITION}
 * condition the broker sync writes on one the agents ignore because it is not the singleton.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PolicyStatus(List<Condition> conditions) {

    public PolicyStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
