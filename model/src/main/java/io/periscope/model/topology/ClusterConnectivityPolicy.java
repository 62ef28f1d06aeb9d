package io.periscope.model.topology;

import io.periscope.model.selector.LabelSelector;

/**
 * Seed 001's ClusterConnectivityPolicy: clusters matched by the left selector connect to clusters
 * matched by the right one (either way round). With no policy at all the set is a full mesh.
 */
public record ClusterConnectivityPolicy(String name, LabelSelector leftClusterSelector, LabelSelector rightClusterSelector) {
}
