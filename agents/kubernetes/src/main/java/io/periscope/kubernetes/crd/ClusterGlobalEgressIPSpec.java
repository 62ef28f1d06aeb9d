package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * Seed 004's field names: {@code numGlobalIPs}, and {@code cluster_id} so that the object can be
 * shared across clusters with multiple active gateways. The bounds are checked by the controller,
 * not the schema, so that an out-of-range request is answered with {@code InvalidInput} in its status.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterGlobalEgressIPSpec(
        @JsonProperty("numGlobalIPs") @JsonPropertyDescription("The number of contiguous global IPs to allocate from the cluster's global CIDR (0..20; default 8).")
        Integer numGlobalIPs,
        @JsonProperty("cluster_id") @JsonPropertyDescription("The cluster the addresses belong to.")
        String clusterId) {
}
