package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one node considers up and down right now: each watched gateway with its health. What the
 * status of the node's Endpoint / Gateway reports, and what {@link NexthopWithdrawal} withdraws.
 */
public record HealthView(Map<HealthTarget, PeerHealth> peers) {

    public HealthView {
        peers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(peers));
    }

    /** The nexthop addresses of every gateway considered down. */
    public Set<Ipv4Address> withdrawn() {
        Set<Ipv4Address> down = new TreeSet<>();
        peers.forEach((target, health) -> {
            if (!health.up()) {
                down.addAll(target.nexthops());
            }
        });
        return down;
    }

    /** The gateways considered down, by name. */
    public List<String> down() {
        return peers.entrySet().stream().filter(e -> !e.getValue().up()).map(e -> e.getKey().gateway()).sorted().toList();
    }

    /** Whether both views say the same gateways are up (counters aside). */
    public boolean sameVerdicts(HealthView other) {
        if (!peers.keySet().equals(other.peers.keySet())) {
            return false;
        }
        return peers.entrySet().stream().allMatch(e -> e.getValue().up() == other.peers.get(e.getKey()).up());
    }
}
