package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;

import java.util.List;

/**
 * One node of a cluster while the per-host planners (route agent, egress steering, Globalnet, cables)
 * fill in its plan: the node, the draft they write into, the nexthop ids of that host (shared by the
 * route agent and the vxlan cable, so their nexthop objects do not collide), and its cluster's
 * {@link ClusterContext}, whose parts it hands out directly.
 */
record HostContext(ClusterContext clusterContext, Node node, HostDraft host, Tunnels.NexthopIds ids) {

    ClusterSet set() {
        return clusterContext.set();
    }

    Cluster cluster() {
        return clusterContext.cluster();
    }

    ClusterIndex index() {
        return clusterContext.index();
    }

    GlobalAddresses global() {
        return clusterContext.global();
    }

    DownGateways down() {
        return clusterContext.down();
    }

    CablePorts ports() {
        return clusterContext.ports();
    }

    List<Ipv4Prefix> localSubnets() {
        return clusterContext.localSubnets();
    }

    List<RemoteCluster> remotes() {
        return clusterContext.remotes();
    }

    List<Ipv4Prefix> remoteSubnets() {
        return clusterContext.remoteSubnets();
    }

    List<RouteAgentPlanner.RefusedCluster> refused() {
        return clusterContext.refused();
    }

    /** A cluster's active gateways, found once for the whole set. */
    List<Node> activeGateways(Cluster of) {
        return clusterContext.activeGateways(of);
    }

    /** What a gateway of a cluster owns ({@link OwnedEgress#of}), worked out once for the whole set. */
    List<io.periscope.model.net.Ipv4Address> ownedEgress(Cluster of, Node gateway) {
        return clusterContext.ownedEgress(of, gateway);
    }

    ClusterContext.SharedParts shared() {
        return clusterContext.shared();
    }

    /** Parts of host plans that the hosts of every cluster build alike, built once for the whole set. */
    ClusterContext.SharedParts setWide() {
        return clusterContext.setWide();
    }

    /** What the host's planners write Submariner's part of its plan into. */
    PlanBuilder plan() {
        return host.submariner();
    }
}
