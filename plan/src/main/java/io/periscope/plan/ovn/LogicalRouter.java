package io.periscope.plan.ovn;

import java.util.List;
import java.util.Optional;

/**
 * An OVN logical router. A packet goes through its pipeline in OVN's order: the load balancers of
 * its groups (and of the switch it came from) translate a new connection's destination, then the
 * longest-prefix route among the connected networks of its ports and its static routes picks a port
 * and next hop (no route: dropped), then the policies in descending priority may override it (the
 * first that matches: reroute to a next hop, allow, or drop).
 *
 * @param chassis the node whose chassis the router is bound to (a gateway router's
 *                {@code options:chassis}); empty for a distributed router
 */
public record LogicalRouter(String name, List<RouterPort> ports, List<RouterPolicy> policies, List<StaticRoute> staticRoutes,
                            Optional<String> chassis, List<String> loadBalancerGroups) {

    public LogicalRouter {
        ports = List.copyOf(ports);
        policies = List.copyOf(policies);
        staticRoutes = List.copyOf(staticRoutes);
        loadBalancerGroups = List.copyOf(loadBalancerGroups);
    }

    public Optional<RouterPort> port(String portName) {
        return ports.stream().filter(p -> p.name().equals(portName)).findFirst();
    }
}
