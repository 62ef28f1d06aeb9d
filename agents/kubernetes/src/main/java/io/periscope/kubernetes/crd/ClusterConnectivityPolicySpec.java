package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** Seed 001: clusters matched by the left selector connect to those matched by the right one; empty matches all. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterConnectivityPolicySpec(LabelSelector leftClusterSelector, LabelSelector rightClusterSelector) {
}
