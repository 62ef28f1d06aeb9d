package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.Names;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The vxlan cable driver on an active gateway: {@code vxlan-tunnel} to every active gateway of every
 * cluster it connects to with vxlan, table 100 routing each remote cluster's subnets over all its gateways, and,
 * with Globalnet and multiple active gateways, the metric-98 route per remote egress address back
 * to the gateway that owns it (seed 004, step 5c), so replies return to the gateway holding the
 * connection's NAT state, and one to each remote gateway's own global IP (its healthCheckIP).
 */
final class VxlanCablePlanner {

    private VxlanCablePlanner() {
    }

    /** @param remotes the connected clusters the vxlan driver carries to */
    static void plan(HostContext context, List<RemoteCluster> remotes) {
        if (remotes.isEmpty()) {
            return;
        }
        ClusterSet set = context.set();
        Cluster cluster = context.cluster();
        Node node = context.node();
        GlobalAddresses global = context.global();
        PlanBuilder plan = context.plan();
        Ipv4Address address = Tunnels.tunnelAddress(Names.VXLAN_TUNNEL_FIRST_OCTET, node.ip());
        // Neither local nor dev, as upstream's driver creates it: the outer packets leave by the route
        // to each remote gateway's endpoint address (on a lab gateway, its WAN device and address).
        plan.vxlan(VxlanDevice.unbound(Names.VXLAN_TUNNEL, Names.VXLAN_TUNNEL_VNI, Names.VXLAN_TUNNEL_PORT,
                Names.vxlanMtu(node.link().effectiveMtu()), address, Tunnels.tunnelNetwork(Names.VXLAN_TUNNEL_FIRST_OCTET))
                .withLearning(learns(remotes)));
        // The VXLAN cable driver sets loose reverse-path filtering on its device, as upstream does.
        plan.sysctl("net.ipv4.conf." + Names.VXLAN_TUNNEL + ".rp_filter", RouteAgentPlanner.LOOSE_RP_FILTER);
        // And enables forwarding on it, as upstream's driver does (EnableForwarding).
        plan.sysctl("net.ipv4.conf." + Names.VXLAN_TUNNEL + ".forwarding", RouteAgentPlanner.FORWARDING_ON);
        List<Ipv4Address> peers = new ArrayList<>();
        for (RemoteCluster remote : remotes) {
            for (Node gateway : context.activeGateways(remote.cluster())) {
                peers.add(gateway.endpointIp());
            }
        }
        Tunnels.peers(plan, Names.VXLAN_TUNNEL, peers);

        for (RemoteCluster remote : remotes) {
            List<Ipv4Address> via = context.activeGateways(remote.cluster()).stream()
                    .map(g -> Tunnels.tunnelAddress(Names.VXLAN_TUNNEL_FIRST_OCTET, g.ip())).toList();
            // Upstream's vxlan driver gives its routes no protocol, so the kernel records them as
            // `proto boot`; the agents recognise them by table and device, as upstream's cleanup does.
            Tunnels.spread(plan, context.shared(), context.ids(), Names.CABLE_TABLE, remote.subnets(), via, Names.VXLAN_TUNNEL, cluster.loadBalancing(),
                    Optional.of(node.cniIp()), Names.CABLE_ROUTE_METRIC, RouteProtocol.BOOT);
            if (set.globalnet().enabled() && remote.cluster().multiActiveGateways()) {
                for (Node gateway : context.activeGateways(remote.cluster())) {
                    Ipv4Address owner = Tunnels.tunnelAddress(Names.VXLAN_TUNNEL_FIRST_OCTET, gateway.ip());
                    // The same routes on every active gateway of every other cluster: one list of
                    // records for the set (a gateway of 49 peers with 20 egress addresses each
                    // would otherwise hold 980 routes of its own). Routes are immutable records.
                    plan.routes(context.setWide().list(new EgressRoutesTo(remote.cluster().name(), gateway.name()), () -> {
                        List<Nexthop> viaOwner = List.of(Nexthop.via(owner, Names.VXLAN_TUNNEL));
                        List<Route> routes = new ArrayList<>();
                        for (Ipv4Address egress : context.ownedEgress(remote.cluster(), gateway)) {
                            routes.add(Route.unicast(Names.CABLE_TABLE, Ipv4Prefix.host(egress), viaOwner, RouteProtocol.STATIC)
                                    .withMetric(Names.EGRESS_IP_ROUTE_METRIC));
                        }
                        return routes;
                    }));
                    // The gateway's own global IP (its Endpoint's healthCheckIP) is DNATed by that
                    // gateway alone: a health-check ping spread over the cluster's gateways would
                    // find no route on the others, so it goes to its gateway like its egress IPs.
                    // The gateway's own pings leave from its CNI address, as over the cluster's
                    // route, so that Globalnet SNATs them to an egress IP the reply can come back to.
                    global.gatewayGlobalIp(remote.cluster().name(), gateway.name()).ifPresent(own ->
                            plan.route(Route.unicast(Names.CABLE_TABLE, Ipv4Prefix.host(own), List.of(Nexthop.via(owner, Names.VXLAN_TUNNEL)),
                                    RouteProtocol.STATIC).withSource(node.cniIp()).withMetric(Names.EGRESS_IP_ROUTE_METRIC)));
                }
            }
        }
    }

    /**
     * Whether {@code vxlan-tunnel} learns where each peer's MAC is (seed 004): when a connected cluster
     * has several active gateways. Upstream's device learns nothing and has an all-zero entry per
     * remote active gateway, so every unicast frame is flooded to each of them and a remote cluster
     * with N active gateways costs the sending uplink N copies of every packet: seed 004's gateways
     * would then not add their rates up. Learning keeps the all-zero entries for what they are for (the
     * ARP request, flooded, reaches the gateway that owns the next hop and teaches it the sender's
     * MAC; the reply, sent back unicast, teaches the sender the owner's), after which frames go to the
     * one gateway that keeps them. Only the remote clusters count: a gateway's frames never go to its
     * own cluster's gateways over this device. With one active gateway per connected cluster the
     * device stays as upstream's (two such clusters still flood each other's frames, as upstream does;
     * seed 004 is not about them).
     */
    static boolean learns(List<RemoteCluster> remotes) {
        return remotes.stream().anyMatch(remote -> remote.cluster().activeGateways().size() > 1);
    }

    /** The metric-98 routes to the egress addresses a remote cluster's gateway owns, through that gateway: the same from every peer. */
    private record EgressRoutesTo(String cluster, String gateway) {
    }
}
