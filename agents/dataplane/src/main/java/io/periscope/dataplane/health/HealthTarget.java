package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;

import java.util.Set;

/**
 * A gateway a node load-balances to: where to probe it, and which nexthop addresses of the node's
 * routes lead to it (its vx-submariner address for a non-gateway node; for a gateway, the remote
 * gateway's address on the cable). Probing the same address the routes use sends the probe through
 * the same tunnel as the traffic, so a probe answers for the path, not only for the gateway.
 *
 * @param gateway   {@code cluster/node}, for people and status
 * @param probe     the address the probes go to
 * @param nexthops  the nexthop addresses withdrawn while the gateway is down
 */
public record HealthTarget(String gateway, Ipv4Address probe, Set<Ipv4Address> nexthops) {

    public HealthTarget {
        nexthops = Set.copyOf(nexthops);
    }
}
