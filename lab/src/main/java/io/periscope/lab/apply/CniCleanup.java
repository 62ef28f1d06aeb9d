package io.periscope.lab.apply;

import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.dataplane.iproute.IpBatchRenderer;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;

import java.util.List;
import java.util.Map;

/**
 * What a node's CNI changes when a node or pod leaves the cluster: its routes (and their nexthops and
 * rules) to the host that went, e.g. a worker's route to the removed node's pod subnet and address, and
 * the routes to the pod subnets the model hands the nodes left (it splits the cluster's pod CIDR among
 * its nodes in order, so a neighbour's subnet can grow). {@code lab up} plays the CNI by writing each
 * host's environment layer once; nothing runs afterwards that would keep it, so {@code lab apply}
 * brings each remaining host's environment routing level with the new plan, as the CNI's own
 * controller follows the node list. Periscope's agents own none of it.
 */
final class CniCleanup {

    private CniCleanup() {
    }

    /** Whether the environments of {@code before} and {@code after} differ in their routing only (what this class changes). */
    static boolean routingOnly(HostPlan before, HostPlan after) {
        return withoutRouting(before.environment()).equals(withoutRouting(after.environment()));
    }

    /** The {@code ip -batch} lines bringing {@code before}'s environment routing level with {@code after}'s. */
    static List<String> lines(HostPlan before, HostPlan after) {
        return IpBatchRenderer.lines(DataplaneDiff.between(routing(before.environment()), routing(after.environment())).changes());
    }

    private static DataplanePlan routing(DataplanePlan plan) {
        return new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(), plan.nexthops(), plan.nexthopGroups(), plan.routes(),
                plan.rules(), Map.of());
    }

    /** The plan's layers other than routing, to compare them whole. */
    private static DataplanePlan withoutRouting(DataplanePlan plan) {
        return new DataplanePlan(plan.netfilter(), plan.ipsets(), plan.vxlanDevices(), plan.fdb(), plan.neighbours(), List.of(),
                List.of(), List.of(), List.of(), plan.sysctls(), plan.wireGuardDevices(), plan.ipsecConnections());
    }
}
