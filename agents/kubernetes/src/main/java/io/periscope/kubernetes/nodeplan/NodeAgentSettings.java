package io.periscope.kubernetes.nodeplan;

import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.election.LeaseTimings;

import java.time.Duration;

/**
 * What a gateway or route agent is told when it starts (flags and the downward API).
 *
 * @param multiActiveGateway the {@code --multi-active-gateway} flag: one lease per gateway node
 *                           instead of one per cluster; the Cluster object must say the same
 * @param health             how the node probes the gateways it load-balances to
 */
public record NodeAgentSettings(String clusterId, String namespace, String nodeName, boolean multiActiveGateway,
                                LeaseTimings timings, Duration resync, HealthSettings health) {

    /** With the default health checking. */
    public NodeAgentSettings(String clusterId, String namespace, String nodeName, boolean multiActiveGateway,
                             LeaseTimings timings, Duration resync) {
        this(clusterId, namespace, nodeName, multiActiveGateway, timings, resync, HealthSettings.DEFAULTS);
    }
}
