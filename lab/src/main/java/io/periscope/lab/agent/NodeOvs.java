package io.periscope.lab.agent;

import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.ovn.OvsBridge;

import java.util.List;

/**
 * A node's Open vSwitch as Submariner's agent sees it on an OVN-Kubernetes node: where its database
 * is, and the bridges the plan gives the node ({@link NodeBridge}).
 *
 * @param database the OVSDB remote, {@code unix:DIR/db.sock}
 */
public record NodeOvs(String database, List<NodeBridge> bridges) {

    public NodeOvs {
        bridges = List.copyOf(bridges);
    }

    /** The bridges {@code plan} gives {@code host} (none off OVN-Kubernetes, and none under upstream's architecture). */
    public static List<NodeBridge> bridges(ClusterSetPlan plan, HostPlan host) {
        List<OvsBridge> rows = plan.ovn(host.id().cluster()).map(t -> t.bridges()).orElse(List.of());
        return NodeBridge.forNode(host.id().name(), rows, host.interfaces());
    }
}
