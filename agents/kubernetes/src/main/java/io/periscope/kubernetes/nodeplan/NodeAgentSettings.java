package io.periscope.kubernetes.nodeplan;

import io.periscope.kubernetes.leaderelection.LeaseTimings;

import java.time.Duration;

/**
 * What a gateway or route agent is told when it starts (flags and the downward API).
 *
 * @param multiActiveGateway the {@code --multi-active-gateway} flag: one lease per gateway node
 *                           instead of one per cluster; the Cluster object must say the same
 */
public record NodeAgentSettings(String clusterId, String namespace, String nodeName, boolean multiActiveGateway,
                                LeaseTimings timings, Duration resync) {
}
