package io.periscope.lab.dns;

import java.util.List;

/**
 * What the supervisor reports about one cluster's DNS server.
 *
 * @param service      the DNS Service address pods ask
 * @param server       where the server listens: its node and address
 * @param clustersDown the clusters whose gateways health checking reports down, which the answers leave out
 * @param replacements how many times the zone was replaced since the server started
 */
public record ClusterDnsStatus(String service, String server, List<String> clustersDown, long replacements) {

    public ClusterDnsStatus {
        clustersDown = clustersDown == null ? List.of() : List.copyOf(clustersDown);
    }
}
