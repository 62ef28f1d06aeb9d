package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** Seed 002's GlobalEgressIP spec: how many addresses, and which pods of the namespace (all without a selector). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GlobalEgressIPSpec(
        @JsonPropertyDescription("The number of contiguous global IPs to allocate (0..20; default 1).")
        Integer numberOfIPs,
        @JsonPropertyDescription("The pods whose egress uses these addresses; every pod of the namespace when absent.")
        LabelSelector podSelector) {
}
