package io.periscope.plan.dns;

import java.util.Set;

/**
 * Which clusters' gateways the agents' health checking reports as all down. A cluster left with no
 * gateway in the plan (every gateway node failed) counts as down too, without being listed here.
 */
public record GatewayHealth(Set<String> clustersDown) {

    public static final GatewayHealth ALL_UP = new GatewayHealth(Set.of());

    public GatewayHealth {
        clustersDown = Set.copyOf(clustersDown);
    }

    public boolean down(String cluster) {
        return clustersDown.contains(cluster);
    }
}
