package io.periscope.planner;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every host in the order it was planned, and the nodes' drafts by id. The planners look up nodes
 * only; pods, most of a large set's hosts, are never looked up, so they are not hashed into a map
 * (the hash codes of 100,000 pod ids from 50 clusters collide often enough that it showed). A pod
 * is complete when the environment planner is done with it, so it is kept as its built plan
 * rather than as a draft: a draft, its interface list and that list's array for each of 100,000
 * pods, all alive until the whole set is planned, were copied by the garbage collector.
 */
final class HostDrafts {

    /** Each host's {@link HostDraft}, or its {@link HostPlan} when it was complete at once. */
    private final List<Object> all;
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

    /** A pod planned whole: nothing is added to it later. */
    void add(HostPlan pod) {
        if (!pod.id().isPod()) {
            throw new IllegalArgumentException(pod.id() + " is a node; a node's draft is filled in by several planners");
        }
        all.add(pod);
    }

    /** A node's draft (the last one added with its id). */
    HostDraft node(HostId id) {
        return nodes.get(id);
    }

    /**
     * Every host's plan in the order added, with pods' layers interned in {@code podLayers} (see
     * {@link HostDraft#build}). Each draft is let go once built, so that drafts and plans are not
     * all held at once; the drafts are gone afterwards.
     */
    HostPlan[] build(Map<DataplanePlan, DataplanePlan> podLayers) {
        HostPlan[] built = new HostPlan[all.size()];
        for (int i = 0; i < built.length; i++) {
            built[i] = switch (all.get(i)) {
                case HostDraft draft -> draft.build(podLayers);
                case HostPlan plan -> plan;
                default -> throw new IllegalStateException("not a host: " + all.get(i));
            };
            all.set(i, null);
        }
        all.clear();
        nodes.clear();
        return built;
    }
}
