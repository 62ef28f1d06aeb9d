package io.periscope.plan.ovn;

import java.util.List;
import java.util.Optional;

/**
 * The OVN logical network of one OVN-Kubernetes cluster, as its northbound database would hold it:
 * the logical routers (with their ports, policies, static routes, chassis binding and load balancer
 * groups), the logical switches, the load balancer groups, and the OVS bridges the nodes attach to
 * it. Logical switches are layer-2 domains; the plan's {@link io.periscope.plan.Segment}s named
 * {@link #segmentName} carry them, so that hosts and router ports meet on them like on any bridge.
 */
public record OvnTopology(String cluster, List<LogicalRouter> routers, List<LogicalSwitch> switches,
                          List<LoadBalancerGroup> loadBalancerGroups, List<OvsBridge> bridges) {

    public OvnTopology {
        routers = List.copyOf(routers);
        switches = List.copyOf(switches);
        loadBalancerGroups = List.copyOf(loadBalancerGroups);
        bridges = List.copyOf(bridges);
    }

    /** The segment that carries logical switch {@code name} of {@code cluster}. */
    public static String segmentName(String cluster, String name) {
        return cluster + "/ovn/" + name;
    }

    /** Whether {@code segment} is one of an OVN topology's logical switches ({@link #segmentName}). */
    public static boolean isSegment(String segment) {
        return segment.contains("/ovn/");
    }

    public Optional<LogicalRouter> router(String name) {
        return routers.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    public Optional<LogicalSwitch> logicalSwitch(String name) {
        return switches.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public Optional<LoadBalancerGroup> loadBalancerGroup(String name) {
        return loadBalancerGroups.stream().filter(g -> g.name().equals(name)).findFirst();
    }
}
