package io.periscope.model.globalnet;

import java.util.Optional;

/**
 * The cluster's egress addresses (seed 002; seed 004 for one object per active gateway). Upstream
 * names the single object {@code cluster-egress.submariner.io}; with multiple active gateways the
 * node name is prepended.
 *
 * @param gatewayNode the gateway this object belongs to with multiple active gateways, empty otherwise
 */
public record ClusterGlobalEgressIP(String name, String clusterId, Optional<String> gatewayNode, int numGlobalIPs) {

    public static final String DEFAULT_NAME = "cluster-egress.submariner.io";

    public static ClusterGlobalEgressIP forCluster(String clusterId, int numGlobalIPs) {
        return new ClusterGlobalEgressIP(DEFAULT_NAME, clusterId, Optional.empty(), numGlobalIPs);
    }

    public static ClusterGlobalEgressIP forGateway(String clusterId, String node, int numGlobalIPs) {
        return new ClusterGlobalEgressIP(node + "-" + DEFAULT_NAME, clusterId, Optional.of(node), numGlobalIPs);
    }
}
