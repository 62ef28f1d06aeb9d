package io.periscope.model.topology;

/**
 * Which Globalnet design the planner compiles. {@code V2} is Globalnet 2.0 (seed 002: cluster,
 * namespace and pod-selector egress IPs, ingress IPs only for exported services and headless pods);
 * {@code LEGACY} is the first design (seed 000: a global IP for every pod and every exported service),
 * kept so that people can compare the two.
 */
public enum GlobalnetMode {
    V2("v2"), LEGACY("legacy");

    private final String yamlName;

    GlobalnetMode(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
