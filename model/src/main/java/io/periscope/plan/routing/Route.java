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
 */
public record Route(
        int table,
        Ipv4Prefix destination,
        RouteType type,
        List<Nexthop> nexthops,
        OptionalInt nexthopId,
        Optional<Ipv4Address> source,
        int metric,
        RouteProtocol protocol) {

    public static final int MAIN_TABLE = 254;

    public Route {
        nexthops = List.copyOf(nexthops);
        if (type == RouteType.UNICAST && nexthops.isEmpty() && nexthopId.isEmpty()) {
            throw new IllegalArgumentException("unicast route to " + destination + " needs a nexthop");
        }
    }

    public static Route unicast(int table, Ipv4Prefix destination, List<Nexthop> nexthops, RouteProtocol protocol) {
        return new Route(table, destination, RouteType.UNICAST, nexthops, OptionalInt.empty(), Optional.empty(), 0, protocol);
    }

    public Route withSource(Ipv4Address src) {
        return new Route(table, destination, type, nexthops, nexthopId, Optional.of(src), metric, protocol);
    }

    public Route withMetric(int newMetric) {
        return new Route(table, destination, type, nexthops, nexthopId, source, newMetric, protocol);
    }

    /** Routes are identified like the kernel does: table, destination and metric. */
    public RouteKey key() {
        return new RouteKey(table, destination, metric);
    }

    public boolean multipath() {
        return nexthops.size() > 1;
    }

    public record RouteKey(int table, Ipv4Prefix destination, int metric) {
    }
}
