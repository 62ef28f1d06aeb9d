package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/** Seed 001: a cable driver by name ({@code libreswan}, {@code wireguard}, {@code vxlan}) and its options. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CableDriverSpec(String name, Map<String, String> options) {

    public CableDriverSpec {
        options = options == null ? Map.of() : Map.copyOf(options);
    }
}
