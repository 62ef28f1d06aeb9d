package io.periscope.planner;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.Segment;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvsBridge;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;

import java.util.List;
import java.util.Optional;

/**
 * How Submariner carries an OVN-Kubernetes cluster's remote traffic between OVN and the active
 * gateway's host: one of the places where seed 003 and upstream Submariner disagree, so the cluster
 * set's {@code behaviour} chooses (docs/plan.md, "Where the seeds and upstream disagree").
 * OVN-Kubernetes' own network ({@link OvnPlanner}) is the same under both.
 */
sealed interface OvnArchitecture permits SubmarinerRouterArchitecture, ManagementPortArchitecture {

    static OvnArchitecture of(ClusterSet set) {
        return switch (set.behaviour()) {
            case SEEDS -> new SubmarinerRouterArchitecture();
            case UPSTREAM -> new ManagementPortArchitecture();
        };
    }

    /**
     * What Submariner adds to the cluster's logical network; the segments of any switch it adds go
     * into {@code segments}.
     */
    SubmarinerRows logicalRows(ClusterContext context, List<Segment> segments);

    /** The route agent's OVN handler on one node, gateway or not: its interfaces, tables, rules and filter chains. */
    void routeAgent(HostContext context);

    /** The OVN handler's rules in filter SUBMARINER-FWD-MSSCLAMP and SUBMARINER-FORWARD on one node (both chains are jumped to from FORWARD on every node). */
    void forwardChains(HostContext context);

    /** The active gateway's rules in nat SUBMARINER-POSTROUTING; planned after Globalnet, whose jump stays first. */
    void gatewayPostrouting(HostContext context);

    /**
     * The gateway the architecture leads OVN's remote traffic to: the (first) active one. Upstream
     * never had several active gateways; with them, only this one is reached from OVN, and traces
     * through the others show where that leaves their traffic. Empty with every gateway failed.
     */
    static Optional<Node> gatewayReachedFromOvn(io.periscope.model.topology.Cluster cluster) {
        return cluster.activeGateways().stream().findFirst();
    }

    /**
     * Submariner's rows in a cluster's northbound database: on {@code ovn_cluster_router} extra
     * ports, policies and static routes (after OVN-Kubernetes' own), and routers, switches and OVS
     * bridges of its own.
     */
    record SubmarinerRows(List<RouterPort> clusterRouterPorts, List<RouterPolicy> clusterRouterPolicies,
                          List<StaticRoute> clusterRouterRoutes, List<LogicalRouter> routers, List<LogicalSwitch> switches,
                          List<OvsBridge> bridges) {

        public SubmarinerRows {
            clusterRouterPorts = List.copyOf(clusterRouterPorts);
            clusterRouterPolicies = List.copyOf(clusterRouterPolicies);
            clusterRouterRoutes = List.copyOf(clusterRouterRoutes);
            routers = List.copyOf(routers);
            switches = List.copyOf(switches);
            bridges = List.copyOf(bridges);
        }
    }
}
