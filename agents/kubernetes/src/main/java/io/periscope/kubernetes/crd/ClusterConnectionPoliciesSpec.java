package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** The ordered list of connection policies; the first entry matching a pair wins. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterConnectionPoliciesSpec(List<ConnectionPolicy> policies) {

    public ClusterConnectionPoliciesSpec {
        policies = policies == null ? List.of() : List.copyOf(policies);
    }
}
