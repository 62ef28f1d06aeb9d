package io.periscope.simulator.routing;

import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;

import java.util.List;

/** A route with its nexthops resolved (objects and groups looked up) and its {@code ip route} text ready. */
public record CompiledRoute(Route route, List<CompiledNexthop> nexthops, String text) {

    public CompiledRoute {
        nexthops = List.copyOf(nexthops);
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
        return nexthops.stream().filter(nh -> nh.device().equals(oif)).toList();
    }
}
