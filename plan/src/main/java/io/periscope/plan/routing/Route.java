package io.periscope.plan.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A route in one routing table. It forwards through its {@code nexthops} (several make a multipath
 * route, option 1 of seed 004) or through a nexthop object or group ({@code nexthopId}, options 2
 * and 3), or it is a {@link RouteType#BLACKHOLE} / {@link RouteType#UNREACHABLE}.
 *
 * @param reason why a blackhole or unreachable route is there, for people (traces show it when a packet
 *               hits the route); the kernel has no place for it, so it is never programmed nor read back
 */
public record Route(
        int table,
        Ipv4Prefix destination,
        RouteType type,
        List<Nexthop> nexthops,
        OptionalInt nexthopId,
        Optional<Ipv4Address> source,
        int metric,
        RouteProtocol protocol,
        Optional<String> reason) {

    public static final int MAIN_TABLE = 254;

    /** A route as the kernel holds it (no reason). */
    public Route(int table, Ipv4Prefix destination, RouteType type, List<Nexthop> nexthops, OptionalInt nexthopId,
                 Optional<Ipv4Address> source, int metric, RouteProtocol protocol) {
        this(table, destination, type, nexthops, nexthopId, source, metric, protocol, Optional.empty());
    }

    public Route {
        nexthops = List.copyOf(nexthops);
        if (type == RouteType.UNICAST && nexthops.isEmpty() && nexthopId.isEmpty()) {
            throw new IllegalArgumentException("unicast route to " + destination + " needs a nexthop");
        }
    }

    public static Route unicast(int table, Ipv4Prefix destination, List<Nexthop> nexthops, RouteProtocol protocol) {
        return new Route(table, destination, RouteType.UNICAST, nexthops, OptionalInt.empty(), Optional.empty(), 0, protocol);
    }

    /** {@code unreachable DEST proto static}: packets to it fail at once (EHOSTUNREACH) instead of going anywhere. */
    public static Route unreachable(int table, Ipv4Prefix destination, String reason) {
        return new Route(table, destination, RouteType.UNREACHABLE, List.of(), OptionalInt.empty(), Optional.empty(), 0,
                RouteProtocol.STATIC, Optional.of(reason));
    }

    public Route withSource(Ipv4Address src) {
        return new Route(table, destination, type, nexthops, nexthopId, Optional.of(src), metric, protocol, reason);
    }

    public Route withMetric(int newMetric) {
        return new Route(table, destination, type, nexthops, nexthopId, source, newMetric, protocol, reason);
    }

    /** Routes are identified like the kernel does: table, destination and metric. */
    public RouteKey key() {
        return new RouteKey(table, destination, metric);
    }

    /** The same route without its reason: what the kernel holds. */
    public Route withoutReason() {
        return reason.isEmpty() ? this : new Route(table, destination, type, nexthops, nexthopId, source, metric, protocol);
    }

    public boolean multipath() {
        return nexthops.size() > 1;
    }

    public record RouteKey(int table, Ipv4Prefix destination, int metric) {
    }
}
