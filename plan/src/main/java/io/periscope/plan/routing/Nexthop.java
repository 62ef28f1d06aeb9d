package io.periscope.plan.routing;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * One way out of a route: an optional gateway on a device, with a weight for multipath routes.
 * A nexthop without gateway is a directly connected destination ({@code dev X scope link}).
 */
public record Nexthop(Optional<Ipv4Address> via, String device, int weight, boolean onlink) {

    public static Nexthop via(Ipv4Address gateway, String device) {
        return new Nexthop(Optional.of(gateway), device, 1, false);
    }

    public static Nexthop onlink(Ipv4Address gateway, String device) {
        return new Nexthop(Optional.of(gateway), device, 1, true);
    }

    public static Nexthop direct(String device) {
        return new Nexthop(Optional.empty(), device, 1, false);
    }

    @Override
    public String toString() {
        return via.map(v -> "via " + v + " ").orElse("") + "dev " + device + (onlink ? " onlink" : "");
    }
}
