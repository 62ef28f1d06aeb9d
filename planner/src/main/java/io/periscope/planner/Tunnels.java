package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the route agent's and the vxlan cable's tunnels have in common: tunnel addresses derived
 * from node addresses (upstream's 240.x / 241.x scheme), all-zero FDB entries per peer, and
 * the three ways of spreading a route over several gateways.
 */
final class Tunnels {

    private Tunnels() {
    }

    /** {@code <firstOctet>.<last three octets of the node address>}, e.g. 172.18.0.6 -> 240.18.0.6. */
    static Ipv4Address tunnelAddress(int firstOctet, Ipv4Address nodeAddress) {
        return new Ipv4Address(firstOctet << 24 | (nodeAddress.bits() & 0x00ffffff));
    }

    static Ipv4Prefix tunnelNetwork(int firstOctet) {
        return new Ipv4Prefix(new Ipv4Address(firstOctet << 24), 8);
    }

    /**
     * An all-zero FDB entry per peer underlay address, as upstream adds them (AddFDB, populateRemoteVtepIps)
     * and seed 004's multi-endpoint tunnel lists them: broadcasts (ARP) are copied to every peer, and so are
     * unicast frames, which only the device whose (kernel-chosen) MAC they carry keeps.
     */
    static void peers(PlanBuilder plan, String device, List<Ipv4Address> underlays) {
        for (Ipv4Address underlay : underlays) {
            plan.fdb(new FdbEntry(device, MacAddress.ZERO, underlay));
        }
    }

    /** Allocates nexthop object and group ids on one host. */
    static final class NexthopIds {
        private int next = 1;

        int take() {
            return next++;
        }
    }

    /**
     * Routes {@code destinations} over {@code gateways} (tunnel addresses on {@code device}) the way
     * the cluster's load-balancing option says: inline multipath nexthops, or one nexthop group
     * (plain or resilient) shared by all the routes, so a gateway change touches only the group.
     * The routes are {@code proto static}, as the route agent's are upstream.
     */
    static void spread(PlanBuilder plan, ClusterContext.SharedParts shared, NexthopIds ids, int table, List<Ipv4Prefix> destinations,
                       List<Ipv4Address> gateways, String device, GatewayLoadBalancing option, Optional<Ipv4Address> source, int metric) {
        spread(plan, shared, ids, table, destinations, gateways, device, option, source, metric, RouteProtocol.STATIC);
    }

    /**
     * The same, with the routes' protocol: the vxlan cable's are {@code proto boot}, as upstream's.
     * The routes themselves are the same on every host that spreads the same destinations over the
     * same nexthops (every non-gateway node of a cluster): they come from {@code shared}.
     */
    static void spread(PlanBuilder plan, ClusterContext.SharedParts shared, NexthopIds ids, int table, List<Ipv4Prefix> destinations,
                       List<Ipv4Address> gateways, String device, GatewayLoadBalancing option, Optional<Ipv4Address> source, int metric,
                       RouteProtocol protocol) {
        if (destinations.isEmpty() || gateways.isEmpty()) {
            return;
        }
        OptionalInt group = OptionalInt.empty();
        List<Nexthop> inline = gateways.stream().map(g -> Nexthop.via(g, device)).toList();
        if (option != GatewayLoadBalancing.MULTIPATH_ROUTES) {
            List<NexthopGroup.Member> members = new ArrayList<>();
            for (Ipv4Address gateway : gateways) {
                int id = ids.take();
                plan.nexthop(new NexthopObject(id, gateway, device, false));
                members.add(new NexthopGroup.Member(id, 1));
            }
            int groupId = ids.take();
            boolean resilient = option == GatewayLoadBalancing.RESILIENT_NEXTHOP_GROUPS;
            plan.group(resilient ? new NexthopGroup(groupId, members, true, RESILIENT_BUCKETS, RESILIENT_IDLE_TIMER_SECONDS)
                    : new NexthopGroup(groupId, members, false, 0));
            group = OptionalInt.of(groupId);
            inline = List.of();
        }
        List<Nexthop> nexthops = inline;
        OptionalInt groupId = group;
        plan.routes(shared.list(new SpreadRoutes(table, destinations, nexthops, groupId, source, metric, protocol), () -> {
            List<Route> routes = new ArrayList<>(destinations.size());
            for (Ipv4Prefix destination : destinations) {
                routes.add(new Route(table, destination, RouteType.UNICAST, nexthops, groupId, source, metric, protocol));
            }
            return routes;
        }));
    }

    /** Everything the routes {@link #spread} writes are made from. */
    private record SpreadRoutes(int table, List<Ipv4Prefix> destinations, List<Nexthop> inline, OptionalInt group,
                                Optional<Ipv4Address> source, int metric, RouteProtocol protocol) {
    }

    /** Buckets of a resilient group: enough for an even spread over up to 16 gateways. */
    static final int RESILIENT_BUCKETS = 64;

    /**
     * A resilient group's idle timer, written out rather than left to the kernel (whose default is
     * the same 120 s): when a failed gateway returns, only buckets unused for this long move back to
     * it, so a connection that moved away during the failure and still sends keeps its new gateway
     * (and the connection state there) instead of being moved a second time. Written in the plan, a
     * kernel with another default or a hand edit is repaired like any other difference.
     */
    static final int RESILIENT_IDLE_TIMER_SECONDS = 120;
}
