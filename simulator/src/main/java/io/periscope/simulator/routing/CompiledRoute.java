package io.periscope.simulator.routing;

import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;

import java.util.List;

/**
 * A route with its nexthops resolved (objects and groups looked up) and its texts ready: as
 * {@code ip route} prints it, and, for a multipath route, how each nexthop reads as a path's choice.
 */
public record CompiledRoute(Route route, List<CompiledNexthop> nexthops, String text, List<String> choices) {

    public CompiledRoute {
        nexthops = List.copyOf(nexthops);
        choices = List.copyOf(choices);
    }

    /** @param host and {@code table}: where the route is, for the choice texts */
    static CompiledRoute of(String host, String table, Route route, List<CompiledNexthop> nexthops) {
        List<String> choices = new java.util.ArrayList<>();
        for (int i = 0; i < nexthops.size(); i++) {
            CompiledNexthop nh = nexthops.get(i);
            choices.add(host + " table " + table + " " + route.destination() + ": nexthop " + (i + 1) + " of " + nexthops.size()
                    + " " + nh.via().map(a -> "via " + a + " ").orElse("") + "dev " + nh.device());
        }
        return new CompiledRoute(route, nexthops, IpRouteSyntax.route(route, nexthops), choices);
    }

    /** How taking nexthop {@code index} (of {@link #nexthops}) reads in a path's list of choices. */
    public String choice(int index) {
        return choices.get(index);
    }

    public RouteType type() {
        return route.type();
    }

    /** Whether a lookup bound to {@code oif} (a VXLAN device's underlay) may use this route. */
    public boolean usableVia(String oif) {
        if (oif == null || route.type() != RouteType.UNICAST) {
            return true;
        }
        for (CompiledNexthop nh : nexthops) {
            if (nh.device().equals(oif)) {
                return true;
            }
        }
        return false;
    }

    /** The nexthops a lookup bound to {@code oif} may take. */
    public List<CompiledNexthop> nexthopsVia(String oif) {
        if (oif == null) {
            return nexthops;
        }
        int usable = 0;
        for (CompiledNexthop nh : nexthops) {
            if (nh.device().equals(oif)) {
                usable++;
            }
        }
        if (usable == nexthops.size()) {
            return nexthops;
        }
        return nexthops.stream().filter(nh -> nh.device().equals(oif)).toList();
    }
}
