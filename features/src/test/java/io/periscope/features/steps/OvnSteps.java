package io.periscope.features.steps;

import io.cucumber.java.en.Then;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.OvsBridge;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;

import java.util.List;
import java.util.Optional;

/**
 * The OVN logical network of an OVN-Kubernetes cluster: routers, switches, load balancer groups,
 * policies and static routes. A next hop is named by the router that owns the address (a port of
 * it), so scenarios say "to submariner_router" as the documents do, not "to 169.254.254.1".
 */
public final class OvnSteps {

    private final ClusterSetUnderTest world;

    public OvnSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    private OvnTopology topology(String cluster) {
        return world.deployment().ovnTopology(cluster)
                .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no OVN logical network (is its cni ovn-kubernetes?)"));
    }

    private LogicalRouter router(String cluster, String name) {
        OvnTopology topology = topology(cluster);
        return topology.router(name).orElseThrow(() -> new AssertionError("cluster " + cluster + " has no OVN logical router " + name
                + "; its routers: " + topology.routers().stream().map(LogicalRouter::name).toList()));
    }

    /** The router one of whose ports holds {@code address}. */
    private Optional<String> ownerOf(OvnTopology topology, Ipv4Address address) {
        for (LogicalRouter router : topology.routers()) {
            if (router.ports().stream().map(RouterPort::address).anyMatch(address::equals)) {
                return Optional.of(router.name());
            }
        }
        return Optional.empty();
    }

    @Then("cluster {word} has the OVN logical router {word}")
    public void hasRouter(String cluster, String name) {
        router(cluster, name);
    }

    @Then("cluster {word} has the OVN logical switches {word} and {word}")
    public void hasSwitches(String cluster, String first, String second) {
        OvnTopology topology = topology(cluster);
        for (String name : List.of(first, second)) {
            if (topology.logicalSwitch(name).isEmpty()) {
                throw new AssertionError("cluster " + cluster + " has no OVN logical switch " + name + "; its switches: "
                        + topology.switches().stream().map(LogicalSwitch::name).toList());
            }
        }
    }

    @Then("the OVN logical router {word} of cluster {word} uses the load balancer group {word}")
    public void usesGroup(String name, String cluster, String group) {
        LogicalRouter router = router(cluster, name);
        if (!router.loadBalancerGroups().contains(group) || topology(cluster).loadBalancerGroup(group).isEmpty()) {
            throw new AssertionError(name + " of cluster " + cluster + " uses the load balancer groups " + router.loadBalancerGroups()
                    + ", not " + group);
        }
    }

    @Then("the OVN logical router {word} of cluster {word} has a policy rerouting {word} to {word}")
    public void reroutes(String name, String cluster, String prefix, String target) {
        OvnTopology topology = topology(cluster);
        List<RouterPolicy> policies = router(cluster, name).policies();
        boolean found = policies.stream().anyMatch(p -> p.action() == RouterPolicy.Action.REROUTE
                && p.destination().map(d -> d.toString().equals(prefix)).orElse(false)
                && ownerOf(topology, p.nexthop().orElseThrow()).map(target::equals).orElse(false));
        if (!found) {
            throw new AssertionError(name + " of cluster " + cluster + " has no policy rerouting " + prefix + " to " + target
                    + "; its policies: " + policies.stream().map(RouterPolicy::text).toList());
        }
    }

    @Then("the OVN logical router {word} of cluster {word} is bound to the chassis of {word}")
    public void boundTo(String name, String cluster, String host) {
        var node = HostNames.parse(host);
        LogicalRouter router = router(cluster, name);
        if (!node.cluster().equals(cluster) || !router.chassis().equals(Optional.of(node.name()))) {
            throw new AssertionError(name + " of cluster " + cluster + " is bound to " + router.chassis().map(c -> "the chassis of " + c)
                    .orElse("no chassis") + ", not to " + host + "'s");
        }
    }

    @Then("the OVN logical router {word} of cluster {word} routes {word} to {word}")
    public void routesTo(String name, String cluster, String prefix, String target) {
        OvnTopology topology = topology(cluster);
        List<StaticRoute> routes = router(cluster, name).staticRoutes();
        boolean found = routes.stream().anyMatch(r -> r.prefix().toString().equals(prefix)
                && ownerOf(topology, r.nexthop()).map(target::equals).orElse(false));
        if (!found) {
            throw new AssertionError(name + " of cluster " + cluster + " has no static route for " + prefix + " to " + target
                    + "; its routes: " + routes.stream().map(StaticRoute::text).toList());
        }
    }

    @Then("{word} has the OVS bridge {word} with the internal port {word} mapped to {word}")
    public void hasBridge(String host, String bridge, String port, String network) {
        var node = HostNames.parse(host);
        List<OvsBridge> bridges = world.deployment().ovsBridges(node);
        boolean found = bridges.stream().anyMatch(b -> b.bridge().equals(bridge) && b.internalPort().equals(port) && b.logicalSwitch().equals(network));
        if (!found) {
            throw new AssertionError(host + " has no OVS bridge " + bridge + " with the internal port " + port + " mapped to " + network
                    + "; its mapped bridges: " + bridges.stream().map(b -> b.logicalSwitch() + ":" + b.bridge() + " port " + b.internalPort()
                    + " " + b.address() + "/" + b.prefixLength()).toList());
        }
    }
}
