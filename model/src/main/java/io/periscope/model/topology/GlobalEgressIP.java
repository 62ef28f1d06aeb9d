package io.periscope.model.topology;

import io.periscope.model.selector.LabelSelector;

import java.util.Optional;

/**
 * Seed 002's GlobalEgressIP: global egress addresses for every pod of a namespace (no podSelector)
 * or for the pods a podSelector picks in it. Pod-selector objects take precedence over namespace
 * ones, which take precedence over the cluster's.
 */
public record GlobalEgressIP(String name, String namespace, Optional<LabelSelector> podSelector, int numberOfIPs) {

    /** Upstream's limits on numberOfIPs. */
    public static final int MIN_IPS = 0;
    public static final int MAX_IPS = 20;
    public static final int DEFAULT_IPS = 1;

    public boolean namespaceScoped() {
        return podSelector.isEmpty();
    }
}
