package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.RouteDecision;
import io.periscope.simulator.routing.RoutingPolicy;

/**
 * The kernel's reverse-path filter: a packet routed in (to be forwarded or delivered) is dropped
 * when the way back to its source does not fit the device it came by. Apart from the walker because
 * it is a check of its own, with its own sysctls and its own reasons.
 */
final class ReversePathFilter {

    private ReversePathFilter() {
    }

    /**
     * Reverse-path filtering, as {@code fib_validate_source} does it for a packet routed in from a
     * device whose rp_filter (max of {@code conf.all} and the device's) is on: the source is looked
     * up as a destination (no mark, "iif lo", so rules with {@code iif lo} apply). No route, or a
     * route that is not unicast (a local address, a blackhole) fails in both modes; a unicast route
     * not using the device fails only in strict mode. False when the packet was dropped.
     */
    static boolean admits(Visit v) {
        int mode = v.host.rpFilter(v.in);
        if (mode == 0 || v.packet.src().equals(Ipv4Address.ANY)) {
            return true;
        }
        RouteDecision back = v.host.routing.lookup(v.packet.src(), v.packet.dst(), 0, RoutingPolicy.LOOPBACK, null);
        String problem;
        if (back instanceof RouteDecision.Forward f) {
            for (CompiledNexthop nh : f.nexthops()) {
                if (v.in.equals(nh.device())) {
                    return true;
                }
            }
            if (mode == 2) {
                return true;
            }
            problem = "the route back to " + v.packet.src() + " (" + f.route().text() + ") leaves by "
                    + String.join(", ", f.nexthops().stream().map(CompiledNexthop::device).distinct().toList()) + ", not " + v.in;
        } else if (back instanceof RouteDecision.Local) {
            problem = "the source " + v.packet.src() + " is an address of " + v.host.name + " itself (a martian source)";
        } else if (back instanceof RouteDecision.Reject r) {
            problem = "the route back to " + v.packet.src() + " is '" + r.route().text() + "', not a unicast route";
        } else {
            problem = "there is no route back to " + v.packet.src();
        }
        // Written only for a drop: most packets pass, and this runs at every arrival.
        String filter = "rp_filter=" + mode + (mode == 1 ? " (strict)" : " (loose)") + " on " + v.host.name + " " + v.in;
        Endings.dropped(v, "dropped by " + filter + ": " + problem);
        return false;
    }
}
