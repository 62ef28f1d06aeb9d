package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;

import java.util.List;
import java.util.Optional;

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

    /**
     * {@code attaches}: for a router port {@code router/port}; for the others the host and its
     * interface, {@code cluster/node ovn-k8s-mp0}. {@code mac} and {@code address}: the interface's,
     * for a pod or a management port (OVN switches a frame to the port owning its destination MAC,
     * and a router finds a pod's MAC from them).
     */
    public record SwitchPort(String name, Kind kind, String attaches, Optional<MacAddress> mac, Optional<Ipv4Address> address) {

        public SwitchPort(String name, Kind kind, String attaches) {
            this(name, kind, attaches, Optional.empty(), Optional.empty());
        }

        /**
         * The port's {@code addresses} column as OVN-Kubernetes and Submariner set it: {@code router}
         * for a router's peer, {@code unknown} for a localnet port (any MAC may come from the bridge),
         * {@code MAC IP} for a pod or management port.
         */
        public List<String> ovnAddresses() {
            return switch (kind) {
                case ROUTER -> List.of("router");
                case LOCALNET -> List.of("unknown");
                case MANAGEMENT, POD -> mac.map(m -> List.of(m + address.map(a -> " " + a).orElse(""))).orElse(List.of());
            };
        }
    }

    public enum Kind {
        ROUTER, LOCALNET, MANAGEMENT, POD;

        public String ovnName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
