package io.periscope.lab.supervisor;

import io.periscope.agent.health.HealthTargets;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.lease.LabLeases;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;

import java.util.Map;
import java.util.function.Function;

/**
 * The plan the lab's agents program now: the topology {@code up} built, with each single-active
 * cluster's lease holder as its active gateway ({@link LabLeases}). It changes only when a lease
 * changes hands; the lab's namespaces and links do not.
 *
 * @param holders      each electing cluster's holder the plan was made with
 * @param gatewayNames names the gateways behind nexthop addresses, for the health checkers
 */
record SupervisedPlan(Map<String, String> holders, ClusterSetPlan plan, Function<Ipv4Address, String> gatewayNames) {

    static SupervisedPlan of(ClusterSet topology, Map<String, String> holders) {
        ClusterSetPlan plan = Planner.plan(LabCables.of(LabLeases.withHolders(topology, holders)).set());
        return new SupervisedPlan(Map.copyOf(holders), plan, HealthTargets.gatewayNames(plan));
    }

    HostPlan host(HostId id) {
        return plan.host(id).orElseThrow(() -> new IllegalStateException("the plan has no host " + id));
    }
}
