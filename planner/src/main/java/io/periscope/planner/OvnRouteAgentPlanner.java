package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The route agent's OVN handler (seed 003, "OVN Handler in Route Agent"), on every node of an
 * OVN-Kubernetes cluster:
 * <ul>
 * <li>{@code br-submariner} with its internal interface {@code ovn-k8s-sub0} at 169.254.254.10;
 * only on the node whose chassis holds {@code submariner_router} does it meet the router (the
 * {@code submariner_gateway} segment), elsewhere it stays idle;</li>
 * <li>table 150 for host networking, with the fix "Missing default route in table 150": each remote
 * CIDR, and a default, via the node's router port on {@code ovn-k8s-mp0}, looked up for traffic to
 * the remote CIDRs, so host-network pods reach remote services through the CNI network;</li>
 * <li>on the active gateway, table 149 (fix "Redirect the ingress traffic to a cluster via the
 * submariner_router"): traffic from a remote cluster to the local pod and service CIDRs (where the
 * gateway's DNAT sends it) goes into OVN through {@code ovn-k8s-sub0}, to {@code submariner_router}.</li>
 * </ul>
 * The chains are the route agent's own ({@link RouteAgentPlanner}).
 */
final class OvnRouteAgentPlanner {

    private OvnRouteAgentPlanner() {
    }

    /**
     * Fix "Missing rule in SUBMARINER-POSTROUTING chain": traffic from remote clusters that table 149
     * sends into OVN keeps its addresses. Planned after Globalnet, whose jump stays the chain's first rule.
     */
    static void gatewayPostrouting(HostDraft host) {
        host.submariner.rule(Table.NAT, Names.POSTROUTING, Rule.of(Target.accept(), new Match.OutInterface(Names.OVN_K8S_SUB0)));
    }

    static void plan(HostContext context) {
        Cluster cluster = context.cluster();
        Node node = context.node();
        HostDraft host = context.host();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        PlanBuilder plan = context.plan();
        boolean chassis = OvnPlanner.chassis(cluster).filter(node::equals).isPresent();
        host.interfaces.add(new Interface(Names.OVN_K8S_SUB0, List.of(Names.OVN_K8S_SUB0_IP), Macs.of(Macs.OVN_K8S_SUB0, node.ip()),
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
            plan.route(Route.unicast(Names.HOST_NETWORK_TABLE, Ipv4Prefix.DEFAULT, intoOvn, RouteProtocol.STATIC));
        }

        if (host.role == io.periscope.plan.HostPlan.HostRole.GATEWAY && !remoteSubnets.isEmpty()) {
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
}
