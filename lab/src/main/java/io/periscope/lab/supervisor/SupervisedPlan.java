package io.periscope.lab.supervisor;

import io.periscope.dataplane.health.HealthTargets;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.link.LinkPlan;
import io.periscope.lab.lease.LabLeases;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The plan the lab's agents program now: the topology {@code up} built, with each single-active
 * cluster's lease holder as its active gateway ({@link LabLeases}). It changes when a lease
 * changes hands and when {@code lab apply} hands over an edited topology; the lab's namespaces and
 * links do not. A node that considers some gateways down
 * programs it planned again with them down ({@link PlansByDownGateways}), so what a node programs
 * is a function of the lease holders and the gateways it sees down.
 *
 * @param revision     the SHA-256 of the topology file the plan was made from ({@link SupervisorFiles#revision}):
 *                     {@code lab apply} hands a new one over and waits for every agent to have programmed it
 * @param holders      each electing cluster's holder the plan was made with
 * @param gatewayNames names the gateways behind nexthop addresses, for the health checkers
 * @param byDown       the plan again with the down gateways, shared by every node
 * @param links        the links' rates, queues, loss and delay ({@link LinkLoop} keeps them), which no lease changes:
 *                     every gateway node, active or not, is on the WAN
 * @param linkSummary  what they are, in a line (as {@code lab up} says it)
 */
record SupervisedPlan(String revision, Map<String, String> holders, ClusterSetPlan plan, Function<Ipv4Address, String> gatewayNames,
                      PlansByDownGateways byDown, LinkPlan links, String linkSummary) {

    static SupervisedPlan of(String revision, ClusterSet topology, Map<String, String> holders) {
        ClusterSetPlan plan = Planner.plan(LabCables.of(LabLeases.withHolders(topology, holders)).set());
        ClusterSet built = LabCables.of(topology).set();
        LabLayout layout = LabLayout.of(plan);
        LinkPlan links = LinkPlan.of(built, layout);
        return new SupervisedPlan(revision, Map.copyOf(holders), plan, HealthTargets.gatewayNames(plan), new PlansByDownGateways(plan), links,
                links.describe(LinkPlan.delays(built, layout), built));
    }

    /** The Submariner layer of {@code host} with the named gateways ({@code cluster/node}) down. */
    DataplanePlan submariner(HostId host, Set<String> down) {
        return byDown.submariner(host, down);
    }
}
