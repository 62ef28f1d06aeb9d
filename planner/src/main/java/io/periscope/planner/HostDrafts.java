package io.periscope.planner;

import io.periscope.plan.HostId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every host's draft in the order it was planned, and the nodes' by id. The planners look up nodes
 * only; pods, most of a large set's hosts, are never looked up, so they are not hashed into a map
 * (the hash codes of 100,000 pod ids from 50 clusters collide often enough that it showed).
 */
final class HostDrafts {

    private final List<HostDraft> all;
    private final Map<HostId, HostDraft> nodes = new HashMap<>();

    HostDrafts(int expected) {
        all = new ArrayList<>(expected);
    }

    void add(HostDraft host) {
        all.add(host);
        if (!host.id.isPod()) {
            nodes.put(host.id, host);
        }
    }

    /** A node's draft (the last one added with its id). */
    HostDraft node(HostId id) {
        return nodes.get(id);
    }

    /** Every draft in the order added, which {@link #clear} lets go. */
    List<HostDraft> all() {
        return all;
    }

    void clear() {
        all.clear();
        nodes.clear();
    }
}
