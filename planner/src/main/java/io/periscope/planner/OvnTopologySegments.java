package io.periscope.planner;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.ovn.OvnTopology;

/** The segments that carry an OVN-Kubernetes cluster's logical switches. */
final class OvnTopologySegments {

    private OvnTopologySegments() {
    }

    /** OVN-Kubernetes names a node's logical switch after the node. */
    static String nodeSwitch(Cluster cluster, Node node) {
        return OvnTopology.segmentName(cluster.name(), node.name());
    }
}
