package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * One resolved way out of a route (inline nexthop, nexthop object, or member of a nexthop group).
 *
 * @param serial its place among the host's nexthops ({@link RoutingPolicy#nexthops()}), so that what
 *               is known about each way out can sit in an array
 */
public record CompiledNexthop(Optional<Ipv4Address> via, String device, int weight, boolean onlink, int serial) {

    /** The address whose owner the frame goes to: the gateway, or the destination itself when direct. */
    public Ipv4Address nextHopFor(Ipv4Address destination) {
        return via.orElse(destination);
    }
}
