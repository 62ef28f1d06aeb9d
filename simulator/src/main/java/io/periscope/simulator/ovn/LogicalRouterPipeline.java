package io.periscope.simulator.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ovn.LoadBalancer;
import io.periscope.plan.ovn.LoadBalancerGroup;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An OVN logical router compiled for tracing: where a packet goes is decided by the longest prefix
 * among the connected networks of its ports and its static routes (at equal length a connected
 * network wins over a {@code dst-ip} route, which wins over a {@code src-ip} one: OVN's route
 * priority is three per prefix bit plus two, one or none), then by its policies in descending
 * priority (the first match decides: reroute, allow or drop) for a packet that has a route. A new connection's destination is first translated by the load balancers of
 * the router's groups and of the logical switch the packet came from (OVN runs a switch's load
 * balancers in the switch's pipeline, just before the router; the trace shows them at the router).
 */
public final class LogicalRouterPipeline {

    private final HostId id;
    private final LogicalRouter router;
    private final List<RouterPolicy> policies;
    private final Map<String, RouterPort> ports = new HashMap<>();
    private final List<LoadBalancerGroup> ownGroups = new ArrayList<>();
    private final Map<String, List<LoadBalancerGroup>> switchGroups = new HashMap<>();

    public LogicalRouterPipeline(OvnTopology topology, LogicalRouter router) {
        this.id = HostId.node(topology.cluster(), router.name());
        this.router = router;
        this.policies = router.policies().stream().sorted(Comparator.comparingInt(RouterPolicy::priority).reversed()).toList();
        router.ports().forEach(p -> ports.put(p.name(), p));
        router.loadBalancerGroups().forEach(g -> topology.loadBalancerGroup(g).ifPresent(ownGroups::add));
        for (RouterPort port : router.ports()) {
            List<LoadBalancerGroup> groups = new ArrayList<>();
            topology.logicalSwitch(port.logicalSwitch()).map(LogicalSwitch::loadBalancerGroups).orElse(List.of())
                    .forEach(g -> topology.loadBalancerGroup(g).ifPresent(groups::add));
            switchGroups.put(port.name(), groups);
        }
    }

    public HostId id() {
        return id;
    }

    /** The router as a host of the network: its ports are its interfaces, on the segments of their switches. */
    public HostPlan asHost() {
        List<Interface> interfaces = router.ports().stream().map(p -> new Interface(p.name(), List.of(p.address()), p.mac(),
                OvnTopology.segmentName(id.cluster(), p.logicalSwitch()), Interface.DEFAULT_MTU)).toList();
        return new HostPlan(id, HostPlan.HostRole.NODE, Optional.empty(), interfaces, DataplanePlan.EMPTY, DataplanePlan.EMPTY);
    }

    /** A load balancer VIP a new connection coming in by {@code inPort} is addressed to, with its group; null when none. */
    public Balanced loadBalancer(String inPort, Packet packet) {
        for (List<LoadBalancerGroup> groups : List.of(switchGroups.getOrDefault(inPort, List.of()), ownGroups)) {
            for (LoadBalancerGroup group : groups) {
                for (LoadBalancer lb : group.loadBalancers()) {
                    if (lb.vip().equals(packet.dst()) && lb.protocol() == packet.protocol()
                            && (!packet.protocol().hasPorts() || lb.port() == packet.dport())) {
                        return new Balanced(group.name(), lb);
                    }
                }
            }
        }
        return null;
    }

    public record Balanced(String group, LoadBalancer loadBalancer) {
    }

    /** Where the router sends a packet. */
    public sealed interface Decision {
        /** Out of {@code port} to {@code nexthop}; {@code stage} and {@code entry} say what decided. */
        record Forward(String stage, String entry, Ipv4Address nexthop, boolean direct, RouterPort port) implements Decision {
        }

        record Drop(String stage, String entry) implements Decision {
        }

        record NoRoute(String why) implements Decision {
        }
    }

    public static final String POLICY = "ovn policy";
    public static final String STATIC = "ovn static route";
    public static final String CONNECTED = "ovn connected";

    /**
     * OVN's order (northd's stages {@code lr_in_ip_routing}, then {@code lr_in_policy}): the routing
     * table decides first, and a packet it has no route for is dropped there, before any policy; a
     * policy then overrides the route it found (reroute), drops the packet, or lets the route stand
     * (allow). Real OVN showed this: without a route of its own (OVN-Kubernetes' source routes to
     * the nodes' gateway routers), a packet for a remote cluster never reaches the reroute policy.
     */
    public Decision route(Packet packet) {
        Decision routed = lookup(packet);
        if (routed instanceof Decision.NoRoute) {
            return routed;
        }
        for (RouterPolicy policy : policies) {
            if (!policy.matches(packet.src(), packet.dst())) {
                continue;
            }
            switch (policy.action()) {
                case DROP -> {
                    return new Decision.Drop(POLICY, policy.text());
                }
                case REROUTE -> {
                    Ipv4Address nexthop = policy.nexthop().orElseThrow();
                    RouterPort port = portHolding(nexthop);
                    if (port == null) {
                        return new Decision.NoRoute("policy '" + policy.text() + "' reroutes to " + nexthop
                                + ", which no port's network of " + id + " holds");
                    }
                    return new Decision.Forward(POLICY, policy.text(), nexthop, false, port);
                }
                case ALLOW -> {
                    return routed;
                }
            }
        }
        return routed;
    }

    private Decision lookup(Packet packet) {
        RouterPort connected = null;
        int connectedLength = -1;
        for (RouterPort port : router.ports()) {
            if (port.network().contains(packet.dst()) && port.network().length() > connectedLength) {
                connected = port;
                connectedLength = port.network().length();
            }
        }
        StaticRoute best = null;
        int bestLength = -1;
        for (StaticRoute route : router.staticRoutes()) {
            Ipv4Address key = route.policy() == StaticRoute.Policy.DST_IP ? packet.dst() : packet.src();
            int length = route.prefix().length();
            if (!route.prefix().contains(key)) {
                continue;
            }
            boolean better = length > bestLength
                    || length == bestLength && best.policy() == StaticRoute.Policy.SRC_IP && route.policy() == StaticRoute.Policy.DST_IP;
            if (better) {
                best = route;
                bestLength = length;
            }
        }
        if (connected != null && connectedLength >= bestLength) {
            return new Decision.Forward(CONNECTED, connected.network() + " dev " + connected.name(), packet.dst(), true, connected);
        }
        if (best != null) {
            StaticRoute chosen = best;
            RouterPort port = chosen.outputPort().map(ports::get).orElseGet(() -> portHolding(chosen.nexthop()));
            if (port == null) {
                return new Decision.NoRoute("static route '" + best.text() + "' has no port toward " + best.nexthop());
            }
            return new Decision.Forward(STATIC, best.text(), best.nexthop(), false, port);
        }
        return new Decision.NoRoute("no connected network or static route of " + id + " holds it (OVN routes before its policies)");
    }

    private RouterPort portHolding(Ipv4Address address) {
        RouterPort found = null;
        for (RouterPort port : router.ports()) {
            if (port.network().contains(address) && (found == null || port.network().length() > found.network().length())) {
                found = port;
            }
        }
        return found;
    }
}
