package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;

import java.util.List;

/**
 * One cluster as its planners see it, worked out once per cluster by {@link Planner}: the cluster set
 * it belongs to, the addresses the Globalnet IPAM gave out, which gateways are considered down, the
 * cable ports, and what the connectivity policies make of the other clusters: those it connects to
 * (with the subnets their Endpoints offer) and those it is kept apart from.
 *
 * @param localSubnets  the subnets the cluster's own Endpoint offers (its global CIDR with Globalnet)
 * @param remotes       the connected clusters, with their subnets and the pair's cable driver
 * @param remoteSubnets the subnets the connected clusters' Endpoints offer, all of them in order
 * @param refused       the clusters no ClusterConnectivityPolicy connects this one to
 * @param shared        parts of host plans that are the same on many hosts of the cluster, built once
 * @param setWide       answers about one cluster that the hosts of every cluster ask alike (its active
 *                      gateways, what each of them owns), worked out once for the whole set
 */
record ClusterContext(ClusterSet set, Cluster cluster, ClusterIndex index, GlobalAddresses global, DownGateways down, CablePorts ports,
                      List<Ipv4Prefix> localSubnets, List<RemoteCluster> remotes, List<Ipv4Prefix> remoteSubnets,
                      List<RouteAgentPlanner.RefusedCluster> refused, SharedParts shared, SharedParts setWide) {

    /** A cluster's context; {@code setWide} holds what every cluster's hosts ask alike, shared by all the set's contexts. */
    ClusterContext(ClusterSet set, Cluster cluster, ClusterIndex index, GlobalAddresses global, DownGateways down, CablePorts ports,
                   List<Ipv4Prefix> localSubnets, List<RemoteCluster> remotes, List<Ipv4Prefix> remoteSubnets,
                   List<RouteAgentPlanner.RefusedCluster> refused, SharedParts setWide) {
        this(set, cluster, index, global, down, ports, localSubnets, remotes, remoteSubnets, refused, new SharedParts(), setWide);
    }

    /**
     * Rule and route lists every node (or every gateway) of a cluster carries alike, such as the
     * route agent's ACCEPTs for each remote subnet: built for the first host that needs one and
     * the same immutable list handed to the others, so a cluster of a hundred nodes holds one copy
     * instead of a hundred. The key is a record of everything the list is made from.
     */
    static final class SharedParts {
        private final java.util.Map<Object, List<?>> lists = new java.util.HashMap<>();

        @SuppressWarnings("unchecked")
        <T> List<T> list(Object key, java.util.function.Supplier<List<T>> build) {
            List<?> found = lists.get(key);
            if (found == null) {
                found = List.copyOf(build.get());
                lists.put(key, found);
            }
            return (List<T>) found;
        }
    }

    /** The cluster's active gateways ({@link Cluster#activeGateways}), found once for the set. */
    List<Node> activeGateways(Cluster of) {
        return setWide.list(new ActiveGatewaysOf(of.name()), of::activeGateways);
    }

    /** What a gateway of a cluster owns ({@link OwnedEgress#of}), worked out once for the set. */
    List<io.periscope.model.net.Ipv4Address> ownedEgress(Cluster of, Node gateway) {
        return setWide.list(new OwnedEgressOf(of.name(), gateway.name()), () -> OwnedEgress.of(set, of, gateway, global, down));
    }

    private record ActiveGatewaysOf(String cluster) {
    }

    private record OwnedEgressOf(String cluster, String gateway) {
    }

    ClusterContext {
        localSubnets = List.copyOf(localSubnets);
        remotes = List.copyOf(remotes);
        remoteSubnets = List.copyOf(remoteSubnets);
        refused = List.copyOf(refused);
    }

    /** One of the cluster's nodes, being planned into {@code host}, its nexthop ids taken from {@code ids}. */
    HostContext host(Node node, HostDraft host, Tunnels.NexthopIds ids) {
        return new HostContext(this, node, host, ids);
    }
}
