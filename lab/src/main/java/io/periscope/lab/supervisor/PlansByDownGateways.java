package io.periscope.lab.supervisor;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.planner.DownGateways;
import io.periscope.planner.Planner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The lab's plan as a node that considers some gateways down programs it ({@link Planner#replan}:
 * the same addresses, the down gateways' ownership moved to the live ones), planned once per set of
 * down gateways and shared by every node's agent: a gateway's failure is seen by many nodes at once.
 */
final class PlansByDownGateways {

    /** Verdicts come in few combinations; the oldest plans go when a long-running lab sees many. */
    private static final int KEPT = 16;

    private final ClusterSetPlan healthy;
    private final Map<Set<String>, ClusterSetPlan> plans = new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Set<String>, ClusterSetPlan> eldest) {
            return size() > KEPT;
        }
    };

    PlansByDownGateways(ClusterSetPlan healthy) {
        this.healthy = healthy;
    }

    /** The Submariner layer of {@code host} with the named gateways ({@code cluster/node}) down. */
    DataplanePlan submariner(HostId host, Set<String> down) {
        ClusterSetPlan plan;
        if (down.isEmpty()) {
            plan = healthy;
        } else {
            synchronized (plans) {
                plan = plans.computeIfAbsent(Set.copyOf(down), d -> Planner.replan(healthy, DownGateways.of(d)));
            }
        }
        return plan.host(host).orElseThrow(() -> new IllegalStateException("the lab's plan has no host " + host)).submariner();
    }
}
