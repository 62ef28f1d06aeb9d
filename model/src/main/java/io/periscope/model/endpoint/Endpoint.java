package io.periscope.model.endpoint;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriver;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Submariner's Endpoint: one per active gateway, shared through the broker. {@code subnets} are the
 * CIDRs reachable through it (pod and service CIDRs, or the global CIDR with Globalnet);
 * {@code allocatedIPs} are the gateway's ClusterGlobalEgressIP addresses, which seed 004 adds so that
 * remote gateways can route replies back to the gateway that did the SNAT. {@code healthCheckIp} is
 * the address remote gateways' health checks ping, as upstream fills it: the gateway's CNI address
 * without Globalnet, the gateway's own global IP with it (upstream keeps it on the gateway's Gateway
 * object; DNATed to the CNI address on the gateway), empty while the gateway has none.
 */
public record Endpoint(
        String clusterId,
        String hostname,
        Ipv4Address privateIp,
        Optional<Ipv4Address> publicIp,
        List<Ipv4Prefix> subnets,
        CableDriver backend,
        Map<String, String> backendConfig,
        List<Ipv4Address> allocatedIPs,
        Optional<Ipv4Address> healthCheckIp) {

    public Endpoint {
        subnets = List.copyOf(subnets);
        backendConfig = Map.copyOf(backendConfig);
        allocatedIPs = List.copyOf(allocatedIPs);
    }

    /** Upstream's endpoint name: {@code <cluster>-submariner-cable-<cluster>-<hostname>} with dots as dashes. */
    public String name() {
        return (clusterId + "-submariner-cable-" + clusterId + "-" + hostname).replace('.', '-');
    }
}
