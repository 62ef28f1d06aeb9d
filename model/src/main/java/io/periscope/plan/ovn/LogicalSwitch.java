package io.periscope.plan.ovn;

import java.util.List;

/**
 * An OVN logical switch: a layer-2 domain joining router ports ({@code ROUTER}), the host's OVS
 * ports (a node's management port, a localnet port to a bridge such as {@code br-submariner}) and
 * pods. {@code loadBalancerGroups} are applied to traffic entering the logical network from it.
 */
public record LogicalSwitch(String name, List<SwitchPort> ports, List<String> loadBalancerGroups) {

    public LogicalSwitch {
        ports = List.copyOf(ports);
        loadBalancerGroups = List.copyOf(loadBalancerGroups);
    }

    /** {@code attaches}: for a router port {@code router/port}; for the others the host and its interface, {@code cluster/node ovn-k8s-mp0}. */
    public record SwitchPort(String name, Kind kind, String attaches) {
    }

    public enum Kind {
        ROUTER, LOCALNET, MANAGEMENT, POD;

        public String ovnName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
