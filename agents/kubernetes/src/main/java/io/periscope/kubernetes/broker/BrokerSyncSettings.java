package io.periscope.kubernetes.broker;

import java.time.Duration;

/**
 * @param clusterId       this cluster's id
 * @param localNamespace  where this cluster keeps Cluster, Endpoint and policy objects
 * @param brokerNamespace where the broker keeps every cluster's
 */
public record BrokerSyncSettings(String clusterId, String localNamespace, String brokerNamespace, Duration resync) {
}
