package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.link.VxlanDevice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A host's routing: its policy rules in priority order with the kernel's own three ({@code 0: lookup
 * local}, {@code 32766: lookup main}, {@code 32767: lookup default}) and one {@link RoutingTable} per
 * table. A table without a matching route lets the lookup fall through to the next rule; a blackhole
 * or unreachable route ends it.
 */
public final class RoutingPolicy {

    public static final int LOCAL_TABLE = 255;
    public static final int MAIN_TABLE = 254;
    public static final int DEFAULT_TABLE = 253;

    /** Locally generated packets match {@code iif lo} in policy rules. */
    public static final String LOOPBACK = "lo";

    private static final Ipv4Prefix LOOPBACK_NET = Ipv4Prefix.parse("127.0.0.0/8");

    private final int[] localAddresses;
    /** The answer of table local for each address of {@link #localAddresses}, made once. */
    private final RouteDecision.Local[] localDecisions;
    private final CompiledRule[] rules;
    private List<CompiledNexthop> nexthops = List.of();

    private RoutingPolicy(int[] localAddresses, String[] localDevices, CompiledRule[] rules) {
        this.localAddresses = localAddresses;
        this.localDecisions = new RouteDecision.Local[localAddresses.length];
        for (int i = 0; i < localAddresses.length; i++) {
            Ipv4Address address = new Ipv4Address(localAddresses[i]);
            localDecisions[i] = new RouteDecision.Local(address, localDevices[i], IpRouteSyntax.localRoute(address, localDevices[i]));
        }
        this.rules = rules;
    }

    /**
     * @param host           the host's name, for error messages
     * @param localAddresses the host's own addresses (interfaces and VXLAN devices) and their devices
     */
    public static RoutingPolicy compile(String host, DataplanePlan plan, Map<Ipv4Address, String> localAddresses) {
        Map<Integer, List<CompiledRoute>> byTable = new TreeMap<>();
        List<CompiledNexthop> all = new ArrayList<>();
        for (Route route : withConnectedRoutes(plan)) {
            List<CompiledNexthop> nexthops = resolve(host, route, plan, all);
            byTable.computeIfAbsent(route.table(), t -> new ArrayList<>())
                    .add(CompiledRoute.of(host, IpRouteSyntax.tableName(route.table()), route, nexthops));
        }
        Map<Integer, RoutingTable> tables = new TreeMap<>();
        byTable.forEach((id, routes) -> tables.put(id, new RoutingTable(id, routes)));

        List<PolicyRule> policyRules = new ArrayList<>(plan.rules());
        for (PolicyRule implicit : List.of(PolicyRule.lookup(0, LOCAL_TABLE), PolicyRule.lookup(32766, MAIN_TABLE),
                PolicyRule.lookup(32767, DEFAULT_TABLE))) {
            if (!policyRules.contains(implicit)) {
                policyRules.add(implicit);
            }
        }
        // Stable: rules of equal priority keep the order they were added in, as the kernel lists them.
        policyRules.sort(Comparator.comparingInt(PolicyRule::priority));
        CompiledRule[] rules = policyRules.stream().map(r -> new CompiledRule(r, tables.get(r.table()))).toArray(CompiledRule[]::new);

        Map<Integer, String> sorted = new TreeMap<>();
        localAddresses.forEach((a, d) -> sorted.putIfAbsent(a.bits(), d));
        int[] addresses = sorted.keySet().stream().mapToInt(Integer::intValue).toArray();
        String[] devices = sorted.values().toArray(String[]::new);
        RoutingPolicy policy = new RoutingPolicy(addresses, devices, rules);
        policy.nexthops = List.copyOf(all);
        return policy;
    }

    /**
     * The plan's routes and the ones the kernel adds by itself: a VXLAN device's address is added with
     * its network's length ({@code addr add 240.18.0.6/8 dev vx-submariner}), which puts
     * {@code 240.0.0.0/8 dev vx-submariner proto kernel scope link src 240.18.0.6} in table main. No
     * plan route goes there by it, but a reverse-path check of a packet from that network does (a node
     * whose pods' traffic leaves with the node's vx-submariner address).
     */
    static List<Route> withConnectedRoutes(DataplanePlan plan) {
        if (plan.vxlanDevices().isEmpty()) {
            return plan.routes();
        }
        List<Route> routes = new ArrayList<>(plan.routes());
        for (VxlanDevice device : plan.vxlanDevices()) {
            Route connected = Route.unicast(MAIN_TABLE, device.network(), List.of(Nexthop.direct(device.name())), RouteProtocol.KERNEL)
                    .withSource(device.address());
            if (routes.stream().noneMatch(r -> r.table() == MAIN_TABLE && r.destination().equals(device.network()) && r.metric() == connected.metric())) {
                routes.add(connected);
            }
        }
        return routes;
    }

    /** The route's nexthops, each also added to {@code all} (its serial is its place there). */
    private static List<CompiledNexthop> resolve(String host, Route route, DataplanePlan plan, List<CompiledNexthop> all) {
        if (route.nexthopId().isEmpty()) {
            List<CompiledNexthop> nexthops = new ArrayList<>();
            for (Nexthop nh : route.nexthops()) {
                nexthops.add(added(all, new CompiledNexthop(nh.via(), nh.device(), nh.weight(), nh.onlink(), all.size())));
            }
            return nexthops;
        }
        int id = route.nexthopId().getAsInt();
        for (NexthopObject object : plan.nexthops()) {
            if (object.id() == id) {
                return List.of(fromObject(object, 1, all));
            }
        }
        for (NexthopGroup group : plan.nexthopGroups()) {
            if (group.id() == id) {
                List<CompiledNexthop> nexthops = new ArrayList<>();
                for (NexthopGroup.Member member : group.members()) {
                    NexthopObject object = plan.nexthops().stream().filter(o -> o.id() == member.nexthopId()).findFirst()
                            .orElseThrow(() -> new IllegalArgumentException(host + ": nexthop group " + id
                                    + " names nexthop " + member.nexthopId() + ", which does not exist"));
                    nexthops.add(fromObject(object, member.weight(), all));
                }
                return nexthops;
            }
        }
        throw new IllegalArgumentException(host + ": route to " + route.destination() + " in table " + route.table()
                + " names nexthop id " + id + ", but no nexthop object or group has that id");
    }

    private static CompiledNexthop fromObject(NexthopObject object, int weight, List<CompiledNexthop> all) {
        return added(all, new CompiledNexthop(Optional.of(object.via()), object.device(), weight, object.onlink(), all.size()));
    }

    private static CompiledNexthop added(List<CompiledNexthop> all, CompiledNexthop nexthop) {
        all.add(nexthop);
        return nexthop;
    }

    /** Every nexthop of every route, in serial order: the decisions hand out these very objects. */
    public List<CompiledNexthop> nexthops() {
        return nexthops;
    }

    public boolean isLocal(Ipv4Address address) {
        return localIndex(address.bits()) >= 0 || LOOPBACK_NET.contains(address);
    }

    private int localIndex(int bits) {
        if (localAddresses.length <= 8) {
            for (int i = 0; i < localAddresses.length; i++) {
                if (localAddresses[i] == bits) {
                    return i;
                }
            }
            return -1;
        }
        int lo = 0;
        int hi = localAddresses.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = localAddresses[mid];
            if (v < bits) {
                lo = mid + 1;
            } else if (v > bits) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /**
     * Policy routing for one packet.
     *
     * @param iif the input interface, {@link #LOOPBACK} for locally generated packets
     * @param oif for a socket bound to a device (a VXLAN device's underlay), else null
     */
    public RouteDecision lookup(Ipv4Address destination, Ipv4Address source, int mark, String iif, String oif) {
        int dst = destination.bits();
        int src = source.bits();
        for (CompiledRule rule : rules) {
            if (!rule.matches(dst, src, mark, iif)) {
                continue;
            }
            if (rule.local) {
                RouteDecision.Local local = local(destination);
                if (local != null) {
                    return local;
                }
            } else if (rule.table != null) {
                RouteDecision decision = rule.table.decide(dst, oif);
                if (decision != null) {
                    return decision;
                }
            }
        }
        List<String> tried = new ArrayList<>(4);
        for (CompiledRule rule : rules) {
            if (rule.matches(dst, src, mark, iif)) {
                tried.add(rule.name);
            }
        }
        return new RouteDecision.NoRoute(tried);
    }

    private RouteDecision.Local local(Ipv4Address destination) {
        int at = localIndex(destination.bits());
        if (at >= 0) {
            return localDecisions[at];
        }
        if (LOOPBACK_NET.contains(destination)) {
            return new RouteDecision.Local(destination, LOOPBACK, "local 127.0.0.0/8 dev lo proto kernel scope host src 127.0.0.1");
        }
        return null;
    }

    /** A policy rule with its selectors as plain fields (an absent prefix is mask 0, which every address passes). */
    private static final class CompiledRule {

        final RoutingTable table;
        final String name;
        final boolean local;
        private final int fromMask;
        private final int fromValue;
        private final int toMask;
        private final int toValue;
        private final boolean hasFwmark;
        private final int fwmark;
        private final String iif;

        CompiledRule(PolicyRule rule, RoutingTable table) {
            this.table = table;
            this.name = IpRouteSyntax.tableName(rule.table());
            this.local = rule.table() == LOCAL_TABLE;
            this.fromMask = rule.from().map(Ipv4Prefix::mask).orElse(0);
            this.fromValue = rule.from().map(p -> p.network().bits()).orElse(0);
            this.toMask = rule.to().map(Ipv4Prefix::mask).orElse(0);
            this.toValue = rule.to().map(p -> p.network().bits()).orElse(0);
            this.hasFwmark = rule.fwmark().isPresent();
            this.fwmark = rule.fwmark().orElse(0);
            this.iif = rule.inInterface().orElse(null);
        }

        boolean matches(int destination, int source, int mark, String inInterface) {
            return (source & fromMask) == fromValue && (destination & toMask) == toValue
                    && (!hasFwmark || fwmark == mark) && (iif == null || iif.equals(inInterface));
        }
    }
}
