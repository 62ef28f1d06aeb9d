package io.periscope.dataplane.ovn;

import io.periscope.plan.Names;

import java.util.Set;

/**
 * Whose rows a programmer owns, and so may create, change and delete. In a real cluster
 * OVN-Kubernetes owns most of the northbound database and Submariner's network plugin syncer only
 * its part (seed 003, "Network Plugin Syncer"): {@code submariner_router} with its ports and static
 * routes, the {@code submariner_join} and {@code submariner_gateway} switches with their ports,
 * {@code ovn_cluster_router}'s port on {@code submariner_join}, and the reroute policies it puts on
 * {@code ovn_cluster_router} at its own priority. Under upstream's design the route agent also writes
 * static routes on {@code ovn_cluster_router}, marked {@code external_ids:submariner}: those are its
 * own too, and OVN-Kubernetes' routes there, unmarked, are not. Everything else (the node switches, pods,
 * {@code ovn_cluster_router} itself, {@code clusterLBGroup} and its load balancers) it only refers to.
 * {@link #OVN_KUBERNETES} is the rest: what a test or the lab programs to stand in for
 * OVN-Kubernetes where there is none.
 */
public enum NorthboundScope {
    SUBMARINER, OVN_KUBERNETES;

    private static final Set<String> ROUTERS = Set.of(Names.SUBMARINER_ROUTER);
    private static final Set<String> SWITCHES = Set.of(Names.SUBMARINER_JOIN, Names.SUBMARINER_GATEWAY);
    private static final Set<String> PORTS_ON_SHARED_ROUTERS = Set.of(Names.OVN_CLUSTER_SUBMARINER_PORT);

    public boolean owns(NbRow row) {
        return submariners(row) == (this == SUBMARINER);
    }

    static boolean submariners(NbRow row) {
        return switch (row) {
            case NbRow.RouterRow r -> ROUTERS.contains(r.name());
            case NbRow.SwitchRow s -> SWITCHES.contains(s.name());
            case NbRow.RouterPortRow p -> ROUTERS.contains(p.router()) || PORTS_ON_SHARED_ROUTERS.contains(p.name());
            case NbRow.SwitchPortRow p -> SWITCHES.contains(p.logicalSwitch());
            case NbRow.PolicyRow p -> ROUTERS.contains(p.router()) || p.priority() == Names.OVN_REROUTE_PRIORITY;
            case NbRow.RouteRow r -> ROUTERS.contains(r.router()) || r.submariner();
            case NbRow.LoadBalancerRow lb -> false;
            case NbRow.LoadBalancerGroupRow g -> false;
        };
    }
}
