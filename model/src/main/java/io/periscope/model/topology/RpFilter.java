package io.periscope.model.topology;

/**
 * Reverse-path filtering ({@code net.ipv4.conf.*.rp_filter}) as a node's distribution sets it: off
 * (the kernel's own default), strict (RFC 3704: the route back to the source must leave by the
 * interface the packet came in by; RHEL's default) or loose (the source must be routable at all;
 * systemd's default elsewhere).
 */
public enum RpFilter {
    OFF("off", 0),
    STRICT("strict", 1),
    LOOSE("loose", 2);

    private final String yamlName;
    private final int sysctlValue;

    RpFilter(String yamlName, int sysctlValue) {
        this.yamlName = yamlName;
        this.sysctlValue = sysctlValue;
    }

    public String yamlName() {
        return yamlName;
    }

    /** The value of {@code net.ipv4.conf.*.rp_filter}. */
    public String sysctlValue() {
        return Integer.toString(sysctlValue);
    }
}
