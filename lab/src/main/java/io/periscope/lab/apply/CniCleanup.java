package io.periscope.lab.apply;

import io.periscope.dataplane.iproute.IpBatchRenderer;
import io.periscope.lab.layout.LabBatches;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;

import java.util.ArrayList;
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

    /**
     * The {@code ip -batch} lines bringing {@code before}'s environment routing level with {@code after}'s:
     * what went is deleted, whole (a host may route one address over two devices, the underlay and the
     * WAN, which a deletion by destination alone would confuse), then what came is added as {@code up}
     * adds it ({@link LabBatches#routing}).
     */
    static List<String> lines(HostPlan before, HostPlan after) {
        DataplanePlan was = before.environment();
        DataplanePlan will = after.environment();
        List<String> lines = new ArrayList<>();
        gone(was.rules(), will.rules()).forEach(r -> lines.add("rule del " + IpBatchRenderer.policyRule(r)));
        gone(was.routes(), will.routes()).forEach(r -> lines.add("route del " + IpBatchRenderer.route(r)));
        gone(was.nexthopGroups(), will.nexthopGroups()).forEach(g -> lines.add("nexthop del id " + g.id()));
        gone(was.nexthops(), will.nexthops()).forEach(n -> lines.add("nexthop del id " + n.id()));
        lines.addAll(LabBatches.routing(new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(),
                gone(will.nexthops(), was.nexthops()), gone(will.nexthopGroups(), was.nexthopGroups()), gone(will.routes(), was.routes()),
                gone(will.rules(), was.rules()), Map.of())));
        return lines;
    }

    /** What {@code from} has and {@code other} has not, in {@code from}'s order. */
    private static <T> List<T> gone(List<T> from, List<T> other) {
        return from.stream().filter(item -> !other.contains(item)).toList();
    }

    /** The plan's layers other than routing, to compare them whole. */
    private static DataplanePlan withoutRouting(DataplanePlan plan) {
        return new DataplanePlan(plan.netfilter(), plan.ipsets(), plan.vxlanDevices(), plan.fdb(), plan.neighbours(), List.of(),
                List.of(), List.of(), List.of(), plan.sysctls(), plan.wireGuardDevices(), plan.ipsecConnections());
    }
}
