package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Names;
import io.periscope.plan.Segment;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Upstream Submariner's architecture since 0.16 ({@code behaviour: upstream}; v0.19's
 * {@code pkg/routeagent_driver/handlers/ovn}). There is no {@code submariner_router}, no
 * {@code submariner_join} or {@code submariner_gateway}, and no {@code br-submariner} or
 * {@code ovn-k8s-sub0} (the handler's {@code LegacyCleanup} deletes both when it starts): OVN hands
 * remote traffic straight to the active gateway's own management port {@code ovn-k8s-mp0}, and the
 * gateway's host hands the traffic from remote clusters back to it.
 *
 * <ul>
 * <li>The gateway publishes a {@code GatewayRoute} per remote cluster whose next hop is its
 * {@code ovn-k8s-mp0} address ({@code gateway_route_handler.go}); the gateway route controller of
 * the node owning that address writes, on {@code ovn_cluster_router}, a policy
 * {@code 20000 ip4.dst == <remote CIDR> reroute <that address>} and a static route
 * {@code <remote CIDR> <that address>} ({@code gateway_route_controller.go},
 * {@code ovn_logical_routes.go}). The remote CIDRs are the remote Endpoints' subnets: global
 * CIDRs with Globalnet.</li>
 * <li>Every node ({@code host_networking.go}): {@code ip rule pref 150 to <remote CIDR> lookup 150}
 * and, in table 150, one default route via the node's router port on {@code ovn-k8s-mp0} (the
 * gateway of its route to the cluster CIDR).</li>
 * <li>The active gateway ({@code gateway_dataplane.go}, {@code south_rules.go}):
 * {@code ip rule pref 149 from <remote CIDR> to <local pod or service CIDR> lookup 149}, and in
 * table 149 a default route via its router port on {@code ovn-k8s-mp0}; filter
 * {@code SUBMARINER-FWD-MSSCLAMP} sets the MSS of SYNs to and from the remote CIDRs to 1398 (1500
 * less 40 for IP and TCP and 62 for IPsec); filter {@code SUBMARINER-FORWARD} accepts
 * {@code ovn-k8s-mp0} to the cable interface toward the remote CIDRs and back; nat
 * {@code SUBMARINER-POSTROUTING} accepts traffic to and from the remote CIDRs (the no-masquerade
 * rules, appended after Globalnet's jump).</li>
 * </ul>
 *
 * <p>With OVN interconnect a node outside the gateway's zone gets a {@code NonGatewayRoute}'s policy
 * to the gateway's transit switch address instead; Periscope's OVN clusters are one zone (one
 * northbound database), where upstream creates no {@code NonGatewayRoute}: the gateway has no
 * transit switch address.
 */
record ManagementPortArchitecture() implements OvnArchitecture {

    /** Upstream's {@code MSSFor1500MTU}: 1500 less {@code IPTCPOverHead} (40) and {@code ExpectedIPSECOverhead} (62). */
    static final int MSS_FOR_1500_MTU = 1500 - 40 - 62;

    @Override
    public SubmarinerRows logicalRows(ClusterContext context, List<Segment> segments) {
        // With every gateway failed no node owns a GatewayRoute's next hop, and nothing is rerouted.
        Optional<Ipv4Address> managementPort = OvnArchitecture.gatewayReachedFromOvn(context.cluster()).map(Node::cniIp);
        if (managementPort.isEmpty()) {
            return new SubmarinerRows(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        }
        List<Ipv4Prefix> remoteSubnets = remoteEndpointSubnets(context.remotes());
        // The controller reconciles the policies first, then the static routes.
        List<RouterPolicy> policies = remoteSubnets.stream()
                .map(remote -> RouterPolicy.reroute(Names.OVN_REROUTE_PRIORITY, remote, managementPort.get())).toList();
        List<StaticRoute> routes = remoteSubnets.stream()
                .map(remote -> new StaticRoute(remote, managementPort.get(), Optional.empty(), StaticRoute.Policy.DST_IP, true)).toList();
        return new SubmarinerRows(List.of(), policies, routes, List.of(), List.of(), List.of());
    }

    @Override
    public void routeAgent(HostContext context) {
        List<Ipv4Prefix> remoteSubnets = remoteEndpointSubnets(context.remotes());
        if (remoteSubnets.isEmpty()) {
            // The handler programs its tables when a remote Endpoint appears.
            return;
        }
        PlanBuilder plan = context.plan();
        List<Nexthop> intoOvn = List.of(Nexthop.via(Names.ovnRouterPortIp(context.node().cniIp()), Names.OVN_K8S_MP0));
        for (Ipv4Prefix remote : remoteSubnets) {
            plan.policyRule(new PolicyRule(Names.HOST_NETWORK_RULE_PRIORITY, Optional.empty(), Optional.of(remote), OptionalInt.empty(),
                    Optional.empty(), Names.HOST_NETWORK_TABLE));
        }
        plan.route(Route.unicast(Names.HOST_NETWORK_TABLE, Ipv4Prefix.DEFAULT, intoOvn, RouteProtocol.BOOT));

        if (isGateway(context)) {
            for (Ipv4Prefix remote : remoteSubnets) {
                for (Ipv4Prefix local : OvnPlanner.localCidrs(context.cluster())) {
                    plan.policyRule(new PolicyRule(Names.OVN_RULE_PRIORITY, Optional.of(remote), Optional.of(local), OptionalInt.empty(),
                            Optional.empty(), Names.OVN_TABLE));
                }
            }
            plan.route(Route.unicast(Names.OVN_TABLE, Ipv4Prefix.DEFAULT, intoOvn, RouteProtocol.BOOT));
        }
    }

    /** Only the gateway: upstream fills both chains in {@code updateGatewayDataplane}, and empties them on leaving the role. */
    @Override
    public void forwardChains(HostContext context) {
        gatewayForwardingRules(context);
    }

    /**
     * Upstream's {@code setupForwardingIptables} ({@code getMSSClampingRuleSpecs},
     * {@code getForwardingRuleSpecs}): on the active gateway, the {@code --set-mss} clamps and the
     * {@code SUBMARINER-FORWARD} ACCEPTs between {@code ovn-k8s-mp0} and the cable interface; both
     * chains, empty, elsewhere. {@link SubmarinerRouterArchitecture} writes the same: seed 003 names
     * the chains, not their rules.
     */
    static void gatewayForwardingRules(HostContext context) {
        PlanBuilder plan = context.plan();
        List<Rule> mss = plan.chain(Table.FILTER, Names.MSS_CLAMP);
        List<Rule> forward = plan.chain(Table.FILTER, Names.FORWARD);
        if (!isGateway(context)) {
            return;
        }
        String cable = cableInterface(context);
        Target setMss = new Target.SetMss(MSS_FOR_1500_MTU);
        for (Ipv4Prefix remote : remoteEndpointSubnets(context.remotes())) {
            mss.add(Rule.of(setMss, new Match.Destination(remote), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()));
            mss.add(Rule.of(setMss, new Match.Source(remote), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()));
            forward.add(Rule.of(Target.accept(), new Match.Destination(remote), new Match.InInterface(Names.OVN_K8S_MP0),
                    new Match.OutInterface(cable)));
            forward.add(Rule.of(Target.accept(), new Match.Source(remote), new Match.InInterface(cable),
                    new Match.OutInterface(Names.OVN_K8S_MP0)));
        }
    }

    /** The no-masquerade rules ({@code updateNoMasqueradeRules}): the traffic keeps its addresses on its way in and out of OVN. */
    @Override
    public void gatewayPostrouting(HostContext context) {
        for (Ipv4Prefix remote : remoteEndpointSubnets(context.remotes())) {
            context.plan().rule(Table.NAT, Names.POSTROUTING, Rule.of(Target.accept(), new Match.Destination(remote)));
            context.plan().rule(Table.NAT, Names.POSTROUTING, Rule.of(Target.accept(), new Match.Source(remote)));
        }
    }

    /**
     * The subnets of the remote Endpoints the handler knows ({@code getRemoteSubnets}; the gateway
     * publishes a {@code GatewayRoute} per remote Endpoint): only connected clusters with an active
     * gateway have one. When a remote cluster's every gateway failed, its Endpoint is gone and so are
     * its policies, routes, rules and chain entries ({@code RemoteEndpointRemoved}); with them left
     * behind, the gateway, which has no cable to that cluster any more, would send its traffic back
     * into OVN by table 150, and OVN's static route would bring it back again.
     */
    private static List<Ipv4Prefix> remoteEndpointSubnets(List<RemoteCluster> remotes) {
        return remotes.stream().filter(r -> !r.cluster().activeGateways().isEmpty()).flatMap(r -> r.subnets().stream()).toList();
    }

    private static boolean isGateway(HostContext context) {
        return context.host().role == HostPlan.HostRole.GATEWAY;
    }

    /**
     * The local Endpoint's {@code interface-name} backend setting, which only the WireGuard driver
     * sets (its device), else the node's default interface ({@code LocalEndpointCreated}).
     */
    private static String cableInterface(HostContext context) {
        return context.set().defaultCableDriver() == CableDriver.WIREGUARD ? Names.WIREGUARD_DEVICE
                : EnvironmentPlanner.defaultInterface(context.node());
    }
}
