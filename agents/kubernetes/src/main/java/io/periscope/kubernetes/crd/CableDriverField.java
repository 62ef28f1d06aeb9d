package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/**
 * Seed 001: a cable driver by name ({@code libreswan}, {@code wireguard}, {@code vxlan}) and its options, as the
 * {@code cableDriver} field of a ClusterConnectionPolicies entry ({@link ConnectionPolicy}) holds it. Named apart from the
 * model's {@code CableDriverSpec} (in {@code io.periscope.model.policy}), which the model builder makes of it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CableDriverField(String name, Map<String, String> options) {

    public CableDriverField {
        options = options == null ? Map.of() : Map.copyOf(options);
    }
}
