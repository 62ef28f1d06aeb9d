package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;

import java.util.List;

/** What policy routing decided for a packet. */
public sealed interface RouteDecision {

    /** The destination is one of the host's own addresses (rule 0, table local). */
    record Local(Ipv4Address address, String device, String text) implements RouteDecision {
    }

    /** A unicast route; {@code nexthops} are those the packet may take (several for multipath). */
    record Forward(String table, CompiledRoute route, List<CompiledNexthop> nexthops) implements RouteDecision {
    }

    /** A blackhole or unreachable route ended the lookup. */
    record Reject(String table, CompiledRoute route) implements RouteDecision {
    }

    /** No table the rules led to had a route. */
    record NoRoute(List<String> tablesTried) implements RouteDecision {
    }
}
