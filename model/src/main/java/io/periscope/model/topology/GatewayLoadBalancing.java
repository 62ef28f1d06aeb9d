package io.periscope.model.topology;

/**
 * How traffic is spread over several active gateways (seed 004, "Multiple options for load
 * balancing"): multipath routes with inline nexthops (option 1, the default as in the POC), nexthop
 * groups (option 2), or resilient nexthop groups (option 3).
 */
public enum GatewayLoadBalancing {
    MULTIPATH_ROUTES("multipath-routes"),
    NEXTHOP_GROUPS("nexthop-groups"),
    RESILIENT_NEXTHOP_GROUPS("resilient-nexthop-groups");

    private final String yamlName;

    GatewayLoadBalancing(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
