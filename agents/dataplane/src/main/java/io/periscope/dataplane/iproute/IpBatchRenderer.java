package io.periscope.dataplane.iproute;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.NeighbourChange;
import io.periscope.dataplane.change.NexthopGroupChange;
import io.periscope.dataplane.change.NexthopObjectChange;
import io.periscope.dataplane.change.PolicyRuleChange;
import io.periscope.dataplane.change.RouteChange;
import io.periscope.dataplane.change.VxlanDeviceChange;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders link, neighbour, nexthop, route and policy-rule changes as {@code ip -batch} input, one
 * change after the other in the order given (the diff orders them so that every line finds what it
 * needs: devices before their neighbours, objects before groups, groups before routes; deletions
 * the other way round). Additions and replacements use {@code replace} where iproute2 has it, so a
 * line that meets an existing entry updates it instead of failing.
 */
public final class IpBatchRenderer {

    private IpBatchRenderer() {
    }

    /** The lines for {@code changes}; other kinds of change are ignored. */
    public static List<String> lines(List<? extends DataplaneChange> changes) {
        List<String> lines = new ArrayList<>();
        for (DataplaneChange change : changes) {
            switch (change) {
                case VxlanDeviceChange c -> link(c, lines);
                case NeighbourChange c -> lines.add(c.after().map(IpBatchRenderer::neighbourReplace)
                        .orElseGet(() -> neighbourDelete(c.before().orElseThrow())));
                case NexthopObjectChange c -> lines.add(c.after().map(o -> "nexthop replace " + nexthop(o))
                        .orElseGet(() -> "nexthop del id " + c.id()));
                case NexthopGroupChange c -> lines.add(c.after().map(g -> "nexthop replace " + group(g))
                        .orElseGet(() -> "nexthop del id " + c.id()));
                case RouteChange c -> lines.add(c.after().map(r -> "route replace " + route(r))
                        .orElseGet(() -> "route del " + routeSelector(c.before().orElseThrow())));
                case PolicyRuleChange c -> lines.add((c.isRemoval() ? "rule del " : "rule add ") + policyRule(c.rule()));
                default -> {
                }
            }
        }
        return lines;
    }

    /** {@link #lines} as batch text, empty when there is nothing to do. */
    public static String render(List<? extends DataplaneChange> changes) {
        return lines(changes).stream().map(line -> line + "\n").collect(Collectors.joining());
    }

    private static void link(VxlanDeviceChange change, List<String> lines) {
        if (change.after().isEmpty()) {
            lines.add("link del " + change.name());
            return;
        }
        VxlanDevice device = change.after().get();
        if (change.before().isEmpty()) {
            // The all-zero FDB entries say where the peers are, as upstream's do; ARP over them finds
            // each peer's MAC, which the kernel picks. Upstream's device learns nothing (nolearning);
            // a learning one (seed 004's several remote gateways) also notes which peer each MAC came
            // from, so frames for it go there alone instead of to every all-zero destination.
            lines.add("link add " + device.name() + " type vxlan id " + device.vni() + " dstport " + device.port()
                    + device.local().map(l -> " local " + l).orElse("") + device.underlay().map(d -> " dev " + d).orElse("")
                    + learning(device));
            lines.add("link set " + device.name() + " mtu " + device.mtu());
            lines.add("addr add " + device.address() + "/" + device.network().length() + " dev " + device.name());
            lines.add("link set " + device.name() + " up");
            return;
        }
        VxlanDevice before = change.before().get();
        if (before.mtu() != device.mtu()) {
            lines.add("link set " + device.name() + " mtu " + device.mtu());
        }
        if (before.learning() != device.learning()) {
            // The kernel changes the flag in place (vxlan_changelink): the entries learned so far and
            // the routes through the device stay.
            lines.add("link set " + device.name() + " type vxlan" + learning(device));
        }
    }

    private static String learning(VxlanDevice device) {
        return device.learning() ? " learning" : " nolearning";
    }

    private static String neighbourReplace(Neighbour neighbour) {
        return "neigh replace " + neighbour.address() + " lladdr " + neighbour.mac() + " dev " + neighbour.device() + " nud permanent";
    }

    private static String neighbourDelete(Neighbour neighbour) {
        return "neigh del " + neighbour.address() + " dev " + neighbour.device();
    }

    /**
     * A nexthop object as {@code ip nexthop} arguments after the verb: {@code id N via A dev D [onlink]}.
     * The lab writes its nodes' environment with these too, so the agent and the lab give the kernel
     * the same words for the same plan entry.
     */
    public static String nexthop(NexthopObject object) {
        return "id " + object.id() + " via " + object.via() + " dev " + object.device() + (object.onlink() ? " onlink" : "");
    }

    /** A nexthop group as {@code ip nexthop} arguments after the verb: {@code id N group A,W/B [type resilient ...]}. */
    public static String group(NexthopGroup group) {
        String members = group.members().stream()
                .map(m -> m.weight() == 1 ? String.valueOf(m.nexthopId()) : m.nexthopId() + "," + m.weight())
                .collect(Collectors.joining("/"));
        return "id " + group.id() + " group " + members
                + (group.resilient() ? " type resilient buckets " + group.buckets() + " idle_timer " + group.idleTimerSeconds() : "");
    }

    /** A route as {@code ip route} arguments after the verb: its selector and how it forwards. */
    public static String route(Route route) {
        return route(route, true);
    }

    /**
     * A route's selector (type, destination, table, metric, protocol): what deletion names. It gives the
     * protocol too, so it can only remove a route of the protocol Periscope wrote.
     */
    private static String routeSelector(Route route) {
        return route(route, false);
    }

    /** The selector and, when {@code withPath}, how the route forwards (a blackhole or unreachable route does not). */
    private static String route(Route route, boolean withPath) {
        StringBuilder text = new StringBuilder();
        if (route.type() != RouteType.UNICAST) {
            text.append(route.type().name().toLowerCase(Locale.ROOT)).append(' ');
        }
        text.append(route.destination()).append(" table ").append(route.table()).append(" metric ").append(route.metric())
                .append(" proto ").append(route.protocol().iprouteName());
        if (!withPath || route.type() != RouteType.UNICAST) {
            return text.toString();
        }
        route.source().ifPresent(src -> text.append(" src ").append(src));
        if (route.nexthopId().isPresent()) {
            text.append(" nhid ").append(route.nexthopId().getAsInt());
        } else if (route.nexthops().size() == 1) {
            text.append(' ').append(path(route.nexthops().getFirst()));
        } else {
            for (Nexthop nexthop : route.nexthops()) {
                text.append(" nexthop ").append(path(nexthop)).append(" weight ").append(nexthop.weight());
            }
        }
        return text.toString();
    }

    private static String path(Nexthop nexthop) {
        return nexthop.via().map(v -> "via " + v + " ").orElse("") + "dev " + nexthop.device() + (nexthop.onlink() ? " onlink" : "");
    }

    /** A policy rule as {@code ip rule} arguments after the verb: {@code pref N [from] [to] [fwmark] [iif] lookup T}. */
    public static String policyRule(PolicyRule rule) {
        StringBuilder text = new StringBuilder("pref ").append(rule.priority());
        rule.from().ifPresent(f -> text.append(" from ").append(f));
        rule.to().ifPresent(t -> text.append(" to ").append(t));
        rule.fwmark().ifPresent(m -> text.append(" fwmark 0x").append(Integer.toHexString(m)));
        rule.inInterface().ifPresent(i -> text.append(" iif ").append(i));
        return text.append(" lookup ").append(rule.table()).toString();
    }
}
