package io.periscope.simulator.routing;

import io.periscope.plan.HostId;
import io.periscope.simulator.trace.Packet;

import java.util.List;

/**
 * Which of a route's nexthops a flow takes, when the simulator follows one path per flow.
 * {@link #DOCUMENTED_HASH} is Periscope's own hash ({@link MultipathHash}), the same on every host;
 * {@link KernelNexthopChoice} is the kernel's, for hosts whose hash seed is known.
 */
@FunctionalInterface
public interface NexthopChoice {

    NexthopChoice DOCUMENTED_HASH = (host, hashing, forwarded, route, offered, packet) ->
            MultipathHash.select(offered, MultipathHash.hash(hashing, packet));

    /**
     * @param hashing   the host's multipath hash policy, as its plan sets it
     * @param forwarded whether the host forwards the packet, rather than sends it from a socket of its own
     * @param offered the route's nexthops the lookup may use (all of them, or those via a bound device): two or more, or
     *                the one member left in a nexthop group (so that a choice keeping bucket state sees the packet)
     * @return the index in {@code offered} of the nexthop taken
     */
    int choose(HostId host, MultipathHashSettings hashing, boolean forwarded, CompiledRoute route, List<CompiledNexthop> offered,
               Packet packet);
}
