package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;
import java.util.Map;

/**
 * Upstream's Endpoint spec, snake_case as upstream writes it, with seed 004's {@code allocated_ips}:
 * the gateway's ClusterGlobalEgressIP addresses, so remote gateways can route replies back to it.
 * {@code healthCheckIP} is what remote gateways' health checks ping, as upstream fills it: the
 * gateway's CNI address, or with Globalnet the gateway's own global IP (its Gateway object's
 * {@code submariner.io/globalIp} annotation, DNATed to the CNI address on the gateway). Read from a
 * remote cluster, a CNI address is taken as the gateway's; a global IP is not.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointSpec(
        @JsonProperty("cluster_id") String clusterId,
        @JsonProperty("cable_name") String cableName,
        @JsonProperty("healthCheckIP") String healthCheckIP,
        @JsonProperty("hostname") String hostname,
        @JsonProperty("subnets") List<String> subnets,
        @JsonProperty("private_ip") String privateIp,
        @JsonProperty("public_ip") String publicIp,
        @JsonProperty("nat_enabled") Boolean natEnabled,
        @JsonProperty("backend") String backend,
        @JsonProperty("backend_config") Map<String, String> backendConfig,
        @JsonProperty("allocated_ips") @JsonPropertyDescription("The gateway's ClusterGlobalEgressIP addresses (multiple active gateways with Globalnet).")
        List<String> allocatedIPs) {

    public EndpointSpec {
        subnets = subnets == null ? List.of() : List.copyOf(subnets);
        backendConfig = backendConfig == null ? Map.of() : Map.copyOf(backendConfig);
        allocatedIPs = allocatedIPs == null ? List.of() : List.copyOf(allocatedIPs);
    }
}
