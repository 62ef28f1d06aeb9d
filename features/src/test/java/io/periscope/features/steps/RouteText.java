package io.periscope.features.steps;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.IpRouteSyntax;

import java.util.List;
import java.util.Optional;

/**
 * Routes of a host as {@code ip route show table T} prints them, with the nexthops of a nexthop
 * object or group spelled out as iproute2 does: the form the seed documents quote.
 */
final class RouteText {

    private RouteText() {
    }

    static String of(Route route, DataplanePlan host) {
        return IpRouteSyntax.route(route, nexthops(route, host));
    }

    static int table(String name) {
        return switch (name) {
            case "main" -> Route.MAIN_TABLE;
            case "local" -> 255;
            case "default" -> 253;
            default -> Integer.parseInt(name);
        };
    }

    static List<CompiledNexthop> nexthops(Route route, DataplanePlan host) {
        if (route.nexthopId().isEmpty()) {
            return route.nexthops().stream().map(n -> new CompiledNexthop(n.via(), n.device(), n.weight(), n.onlink(), 0)).toList();
        }
        int id = route.nexthopId().getAsInt();
        Optional<NexthopGroup> group = group(host, id);
        if (group.isPresent()) {
            return group.get().members().stream().map(m -> compiled(object(host, m.nexthopId()), m.weight())).toList();
        }
        return List.of(compiled(object(host, id), 1));
    }

    static Optional<NexthopGroup> group(DataplanePlan host, int id) {
        return host.nexthopGroups().stream().filter(g -> g.id() == id).findFirst();
    }

    private static NexthopObject object(DataplanePlan host, int id) {
        return host.nexthops().stream().filter(n -> n.id() == id).findFirst()
                .orElseThrow(() -> new AssertionError("a route names nexthop " + id + ", which the host does not have"));
    }

    private static CompiledNexthop compiled(NexthopObject object, int weight) {
        return new CompiledNexthop(Optional.of(object.via()), object.device(), weight, object.onlink(), 0);
    }
}
