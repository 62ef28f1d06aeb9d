package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.List;

/**
 * Routes as iproute2's {@code ip route show} prints them, on one line and without the table (a trace
 * names the table separately): {@code 100.2.0.0/16 proto static nexthop via 240.18.0.6 dev
 * vx-submariner weight 1 nexthop via 240.18.0.8 dev vx-submariner weight 1}, as in the seed documents.
 * Field order follows iproute2: destination, nhid, via, dev, proto (hidden when {@code boot}), scope
 * (hidden when universe), src, metric (hidden when 0), flags, then the multipath nexthops.
 */
public final class IpRouteSyntax {

    private IpRouteSyntax() {
    }

    /** The route; {@code resolved} are its nexthops (from a nexthop object or group when it names one). */
    public static String route(Route route, List<CompiledNexthop> resolved) {
        StringBuilder text = new StringBuilder(96);
        switch (route.type()) {
            case BLACKHOLE -> text.append("blackhole ");
            case UNREACHABLE -> text.append("unreachable ");
            case UNICAST -> { }
        }
        text.append(destination(route.destination()));
        route.nexthopId().ifPresent(id -> text.append(" nhid ").append(id));
        boolean single = resolved.size() == 1;
        if (single) {
            CompiledNexthop nh = resolved.getFirst();
            nh.via().ifPresent(v -> text.append(" via ").append(v));
            text.append(" dev ").append(nh.device());
        }
        if (route.protocol() != RouteProtocol.BOOT) {
            text.append(" proto ").append(route.protocol().iprouteName());
        }
        if (route.type() == RouteType.UNICAST && single && resolved.getFirst().via().isEmpty()) {
            text.append(" scope link");
        }
        route.source().ifPresent(s -> text.append(" src ").append(s));
        if (route.metric() != 0) {
            text.append(" metric ").append(route.metric());
        }
        if (single && resolved.getFirst().onlink()) {
            text.append(" onlink");
        }
        if (resolved.size() > 1) {
            for (CompiledNexthop nh : resolved) {
                text.append(" nexthop");
                nh.via().ifPresent(v -> text.append(" via ").append(v));
                text.append(" dev ").append(nh.device()).append(" weight ").append(nh.weight());
                if (nh.onlink()) {
                    text.append(" onlink");
                }
            }
        }
        return text.toString();
    }

    /** The kernel's route for one of the host's own addresses, in table local. */
    public static String localRoute(Ipv4Address address, String device) {
        return "local " + address + " dev " + device + " proto kernel scope host src " + address;
    }

    /** {@code default} for 0.0.0.0/0, a bare address for a /32 (as iproute2 prints them). */
    public static String destination(Ipv4Prefix prefix) {
        if (prefix.length() == 0) {
            return "default";
        }
        return prefix.length() == 32 ? prefix.network().toString() : prefix.toString();
    }

    /** Table names as iproute2 prints them. */
    public static String tableName(int table) {
        return switch (table) {
            case 255 -> "local";
            case 254 -> "main";
            case 253 -> "default";
            default -> Integer.toString(table);
        };
    }
}
