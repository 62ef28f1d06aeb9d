package io.periscope.model.topology;

import io.periscope.model.selector.LabelSelector;

/**
 * One entry of seed 001's ClusterConnectionPolicies list: the cable driver (and options) for pairs
 * whose clusters match the two selectors. The list is ordered; the first match wins.
 */
public record ClusterConnectionPolicy(LabelSelector leftClusterSelector, LabelSelector rightClusterSelector, CableDriverSpec cableDriver) {
}
