package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.Segment;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.OvsBridge;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Seed 003's architecture ({@code behaviour: seeds}, the default). The network plugin syncer
 * ("Network Plugin Syncer") adds {@code submariner_router}, bound to the active gateway's chassis and
 * given {@code clusterLBGroup}; {@code submariner_join} between it and {@code ovn_cluster_router};
 * {@code submariner_gateway}, whose localnet port is {@code br-submariner} on the nodes; reroute
 * policies on {@code ovn_cluster_router} for the remote clusters' CIDRs; and static routes on
 * {@code submariner_router}. Addresses are upstream's: {@code submariner_join} is 169.254.254.0/29
 * (submariner_router .1, ovn_cluster_router .2) and {@code submariner_gateway} 169.254.254.8/29
 * (submariner_router .9, ovn-k8s-sub0 .10 on every node).
 *
 * <p>{@code submariner_router}'s static routes follow the fix "Fix logical routes programmed in
 * submariner_router": the remote clusters' CIDRs (their global CIDRs with Globalnet) go up to the
 * gateway's host, and the local pod and service CIDRs (what the gateway's DNAT leaves as destination,
 * with or without Globalnet) down to {@code ovn_cluster_router}.
 *
 * <p>The route agent's OVN handler ("OVN Handler in Route Agent"), on every node:
 * <ul>
 * <li>{@code br-submariner} with its internal interface {@code ovn-k8s-sub0} at 169.254.254.10;
 * only on the node whose chassis holds {@code submariner_router} does it meet the router (the
 * {@code submariner_gateway} segment), elsewhere it stays idle;</li>
 * <li>table 150 for host networking, with the fix "Missing default route in table 150": each remote
 * CIDR, and a default, via the node's router port on {@code ovn-k8s-mp0}, looked up for traffic to
 * the remote CIDRs, so host-network pods reach remote services through the CNI network;</li>
 * <li>on the active gateway, table 149 (fix "Redirect the ingress traffic to a cluster via the
 * submariner_router"): traffic from a remote cluster to the local pod and service CIDRs (where the
 * gateway's DNAT sends it) goes into OVN through {@code ovn-k8s-sub0}, to {@code submariner_router};</li>
 * <li>filter {@code SUBMARINER-FWD-MSSCLAMP} and {@code SUBMARINER-FORWARD} on every node, holding
 * upstream's {@code --set-mss} clamps and ACCEPTs on the active gateway.</li>
 * </ul>
 */
record SubmarinerRouterArchitecture() implements OvnArchitecture {

    @Override
    public SubmarinerRows logicalRows(ClusterContext context, List<Segment> segments) {
        Cluster cluster = context.cluster();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        HostId clusterRouter = HostId.node(cluster.name(), Names.OVN_CLUSTER_ROUTER);
        HostId submarinerRouterId = HostId.node(cluster.name(), Names.SUBMARINER_ROUTER);

        // submariner_join between the two routers.
        Ipv4Prefix joinNet = Ipv4Prefix.containing(Names.SUBMARINER_JOIN_IP, Names.OVN_LINK_PREFIX_LENGTH);
        Ipv4Prefix gatewayNet = Ipv4Prefix.containing(Names.SUBMARINER_UPSTREAM_IP, Names.OVN_LINK_PREFIX_LENGTH);
        RouterPort clusterRouterPort = new RouterPort(Names.OVN_CLUSTER_SUBMARINER_PORT,
                Macs.of(Macs.OVN_ROUTER_PORT, Names.OVN_CLUSTER_SUBMARINER_IP), Names.OVN_CLUSTER_SUBMARINER_IP, joinNet, Names.SUBMARINER_JOIN);
        List<RouterPolicy> policies = remoteSubnets.stream()
                .map(remote -> RouterPolicy.reroute(Names.OVN_REROUTE_PRIORITY, remote, Names.SUBMARINER_JOIN_IP)).toList();

        List<RouterPort> submarinerPorts = List.of(
                new RouterPort(Names.SUBMARINER_JOIN_PORT, Macs.of(Macs.OVN_ROUTER_PORT, Names.SUBMARINER_JOIN_IP), Names.SUBMARINER_JOIN_IP,
                        joinNet, Names.SUBMARINER_JOIN),
                new RouterPort(Names.SUBMARINER_UPSTREAM_PORT, Macs.of(Macs.OVN_ROUTER_PORT, Names.SUBMARINER_UPSTREAM_IP),
                        Names.SUBMARINER_UPSTREAM_IP, gatewayNet, Names.SUBMARINER_GATEWAY));
        List<StaticRoute> submarinerRoutes = new ArrayList<>();
        for (Ipv4Prefix remote : remoteSubnets) {
            submarinerRoutes.add(StaticRoute.toward(remote, Names.OVN_K8S_SUB0_IP, Names.SUBMARINER_UPSTREAM_PORT));
        }
        for (Ipv4Prefix local : OvnPlanner.localCidrs(cluster)) {
            submarinerRoutes.add(StaticRoute.toward(local, Names.OVN_CLUSTER_SUBMARINER_IP, Names.SUBMARINER_JOIN_PORT));
        }
        Optional<Node> chassis = OvnArchitecture.gatewayReachedFromOvn(cluster);
        LogicalRouter submarinerRouter = new LogicalRouter(Names.SUBMARINER_ROUTER, submarinerPorts, List.of(), submarinerRoutes,
                chassis.map(Node::name), List.of(Names.CLUSTER_LB_GROUP));

        List<LogicalSwitch> switches = new ArrayList<>();
        switches.add(new LogicalSwitch(Names.SUBMARINER_JOIN, List.of(
                new LogicalSwitch.SwitchPort("submariner_j_lsp", LogicalSwitch.Kind.ROUTER, Names.SUBMARINER_ROUTER + "/" + Names.SUBMARINER_JOIN_PORT),
                new LogicalSwitch.SwitchPort("ovn_cluster_subm_lsp", LogicalSwitch.Kind.ROUTER,
                        Names.OVN_CLUSTER_ROUTER + "/" + Names.OVN_CLUSTER_SUBMARINER_PORT)), List.of()));
        segments.add(new Segment(OvnTopology.segmentName(cluster.name(), Names.SUBMARINER_JOIN), Segment.SegmentKind.BRIDGE, List.of(
                new Segment.Attachment(submarinerRouterId, Names.SUBMARINER_JOIN_PORT),
                new Segment.Attachment(clusterRouter, Names.OVN_CLUSTER_SUBMARINER_PORT))));

        // submariner_gateway's localnet port is br-submariner on every node, but only the chassis the
        // router is bound to carries its traffic: that node's ovn-k8s-sub0 is the one on the segment.
        // With every gateway failed the router is bound to no chassis and nothing is behind the switch.
        List<LogicalSwitch.SwitchPort> gatewayPorts = new ArrayList<>(List.of(new LogicalSwitch.SwitchPort("submariner_up_lsp",
                LogicalSwitch.Kind.ROUTER, Names.SUBMARINER_ROUTER + "/" + Names.SUBMARINER_UPSTREAM_PORT)));
        List<Segment.Attachment> gatewayAttachments = new ArrayList<>(List.of(
                new Segment.Attachment(submarinerRouterId, Names.SUBMARINER_UPSTREAM_PORT)));
        chassis.ifPresent(node -> {
            HostId chassisId = HostId.node(cluster.name(), node.name());
            gatewayPorts.add(new LogicalSwitch.SwitchPort(Names.SUBMARINER_LOCALNET_PORT, LogicalSwitch.Kind.LOCALNET,
                    chassisId + " " + Names.OVN_K8S_SUB0));
            gatewayAttachments.add(new Segment.Attachment(chassisId, Names.OVN_K8S_SUB0));
        });
        switches.add(new LogicalSwitch(Names.SUBMARINER_GATEWAY, gatewayPorts, List.of()));
        segments.add(new Segment(OvnTopology.segmentName(cluster.name(), Names.SUBMARINER_GATEWAY), Segment.SegmentKind.BRIDGE,
                gatewayAttachments));

        List<OvsBridge> bridges = cluster.nodes().stream().map(n -> new OvsBridge(n.name(), Names.BR_SUBMARINER, Names.OVN_K8S_SUB0,
                Names.OVN_K8S_SUB0_IP, Names.OVN_LINK_PREFIX_LENGTH, Names.SUBMARINER_GATEWAY)).toList();
        return new SubmarinerRows(List.of(clusterRouterPort), policies, List.of(), List.of(submarinerRouter), switches, bridges);
    }

    @Override
    public void routeAgent(HostContext context) {
        Cluster cluster = context.cluster();
        Node node = context.node();
        HostDraft host = context.host();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        PlanBuilder plan = context.plan();
        boolean chassis = OvnArchitecture.gatewayReachedFromOvn(cluster).filter(node::equals).isPresent();
        host.interfaces.add(new Interface(Names.OVN_K8S_SUB0, List.of(Names.OVN_K8S_SUB0_IP), MacAddress.parse(Names.OVN_K8S_SUB0_MAC),
                chassis ? OvnTopology.segmentName(cluster.name(), Names.SUBMARINER_GATEWAY) : "", Interface.DEFAULT_MTU));
        Ipv4Prefix gatewayNet = Ipv4Prefix.containing(Names.OVN_K8S_SUB0_IP, Names.OVN_LINK_PREFIX_LENGTH);
        plan.route(Route.unicast(Route.MAIN_TABLE, gatewayNet, List.of(Nexthop.direct(Names.OVN_K8S_SUB0)), RouteProtocol.KERNEL));

        Ipv4Address routerPort = Names.ovnRouterPortIp(node.cniIp());
        List<Nexthop> intoOvn = List.of(Nexthop.via(routerPort, Names.OVN_K8S_MP0));
        for (Ipv4Prefix remote : remoteSubnets) {
            plan.route(Route.unicast(Names.HOST_NETWORK_TABLE, remote, intoOvn, RouteProtocol.STATIC));
            plan.policyRule(new PolicyRule(Names.HOST_NETWORK_RULE_PRIORITY, Optional.empty(), Optional.of(remote), OptionalInt.empty(),
                    Optional.empty(), Names.HOST_NETWORK_TABLE));
        }
        if (!remoteSubnets.isEmpty()) {
            plan.route(Route.unicast(Names.HOST_NETWORK_TABLE, Ipv4Prefix.DEFAULT, intoOvn, RouteProtocol.BOOT));
        }

        if (host.role == HostPlan.HostRole.GATEWAY && !remoteSubnets.isEmpty()) {
            List<Ipv4Prefix> local = OvnPlanner.localCidrs(cluster);
            for (Ipv4Prefix cidr : local) {
                plan.route(Route.unicast(Names.OVN_TABLE, cidr, List.of(Nexthop.via(Names.SUBMARINER_UPSTREAM_IP, Names.OVN_K8S_SUB0)),
                        RouteProtocol.STATIC));
            }
            for (Ipv4Prefix remote : remoteSubnets) {
                for (Ipv4Prefix cidr : local) {
                    plan.policyRule(new PolicyRule(Names.OVN_RULE_PRIORITY, Optional.of(remote), Optional.of(cidr), OptionalInt.empty(),
                            Optional.empty(), Names.OVN_TABLE));
                }
            }
        }
    }

    /**
     * Seed 003: the OVN handler's {@code SUBMARINER-FWD-MSSCLAMP} and {@code SUBMARINER-FORWARD} on
     * every node, the gateway's "programmed with necessary IPtable rules"; the seed does not say
     * which, so they are upstream's ({@code setupForwardingIptables}: on the active gateway only).
     */
    @Override
    public void forwardChains(HostContext context) {
        ManagementPortArchitecture.gatewayForwardingRules(context);
    }

    /** Fix "Missing rule in SUBMARINER-POSTROUTING chain": traffic from remote clusters that table 149 sends into OVN keeps its addresses. */
    @Override
    public void gatewayPostrouting(HostContext context) {
        context.plan().rule(Table.NAT, Names.POSTROUTING, Rule.of(Target.accept(), new Match.OutInterface(Names.OVN_K8S_SUB0)));
    }
}
