package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A node's plan without the choices that lead to gateways it considers down: the one place where
 * health turns into routes. Pure, so the agent stays level-driven: the desired state is always
 * {@code withdraw(plan, down)}, and a gateway that comes back is simply no longer withdrawn.
 *
 * <p>Only choices are withdrawn: a nexthop of a multipath route (seed 004, option 1) or a member of
 * a nexthop group (options 2 and 3). A route or group whose every choice is down keeps them all,
 * since there is nowhere better to send the packets and the first answer then needs no reprogramming.
 * A route with a single way out is the plan's, health or not. Removing a member from a resilient
 * group moves only that member's buckets: flows on the surviving gateways keep their nexthop.
 */
public final class NexthopWithdrawal {

    private NexthopWithdrawal() {
    }

    public static DataplanePlan withdraw(DataplanePlan plan, Set<Ipv4Address> down) {
        if (down.isEmpty()) {
            return plan;
        }
        List<Route> routes = plan.routes().stream().map(route -> withdraw(route, down)).toList();
        Map<Integer, NexthopObject> objects = plan.nexthops().stream()
                .collect(Collectors.toMap(NexthopObject::id, Function.identity()));
        List<NexthopGroup> groups = plan.nexthopGroups().stream().map(group -> withdraw(group, objects, down)).toList();
        if (routes.equals(plan.routes()) && groups.equals(plan.nexthopGroups())) {
            return plan;
        }
        return new DataplanePlan(plan.netfilter(), plan.ipsets(), plan.vxlanDevices(), plan.fdb(), plan.neighbours(),
                plan.nexthops(), groups, routes, plan.rules(), plan.sysctls(), plan.wireGuardDevices(), plan.ipsecConnections());
    }

    private static Route withdraw(Route route, Set<Ipv4Address> down) {
        if (!route.multipath()) {
            return route;
        }
        List<Nexthop> alive = route.nexthops().stream().filter(nh -> nh.via().map(via -> !down.contains(via)).orElse(true)).toList();
        if (alive.isEmpty() || alive.size() == route.nexthops().size()) {
            return route;
        }
        return new Route(route.table(), route.destination(), route.type(), alive, route.nexthopId(), route.source(),
                route.metric(), route.protocol(), route.reason());
    }

    private static NexthopGroup withdraw(NexthopGroup group, Map<Integer, NexthopObject> objects, Set<Ipv4Address> down) {
        List<NexthopGroup.Member> alive = group.members().stream().filter(member -> {
            NexthopObject object = objects.get(member.nexthopId());
            return object == null || !down.contains(object.via());
        }).toList();
        if (alive.isEmpty() || alive.size() == group.members().size()) {
            return group;
        }
        return new NexthopGroup(group.id(), alive, group.resilient(), group.buckets(), group.idleTimerSeconds());
    }
}
