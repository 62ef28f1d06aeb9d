package io.periscope.kubernetes.dns;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What the DNS server is told when it starts (flags and the downward API).
 *
 * @param clusterId this cluster's id: its pods are the ones asking, so its own exports are preferred
 * @param namespace where the Cluster, Endpoint and Gateway objects live
 * @param listen    where to serve, UDP and TCP (port 53 in the Deployment; port 0 takes an ephemeral one)
 * @param threads   the server's event loop threads
 * @param resync    how often the zone is rebuilt when nothing changed
 */
public record DnsAgentSettings(String clusterId, String namespace, InetSocketAddress listen, int threads, Duration resync) {
}
