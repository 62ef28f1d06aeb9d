package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** One entry of ClusterConnectionPolicies: the cable driver for the pairs the selectors match. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConnectionPolicy(LabelSelector leftClusterSelector, LabelSelector rightClusterSelector, CableDriverField cableDriver) {
}
