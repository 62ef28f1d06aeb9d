package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.List;

/**
 * Periscope's status of a Cluster object (upstream's Cluster has none): the {@value SubmarinerApi#GLOBAL_CIDR_CONDITION}
 * condition the broker sync keeps on this cluster's own Cluster, saying whether the broker gave it
 * its GlobalCIDR, took the preconfigured one, or refused it and why.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterStatus(List<Condition> conditions) {

    public ClusterStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
