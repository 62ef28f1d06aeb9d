package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.policy.EspEncapsulation;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.Names;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The Libreswan cable driver on an active gateway: the connections upstream's driver whacks into
 * pluto, one per local subnet x remote subnet, named after the remote Endpoint's cable, from this
 * gateway's private address (upstream's {@code bidirectionalConnectToEndpoint} connects from the local
 * Endpoint's private IP; behind NAT the environment's NAT device translates it) to the remote
 * gateway's endpoint address (its public IP if it has one, as upstream's NAT discovery finds it
 * reachable only there), IKE on the NAT-T ports, pre-shared key,
 * proposals left to Libreswan unless the connection policy's {@code ike} / {@code esp} options set
 * them. ESP goes inside UDP only where upstream's would: NAT between the gateways or the policy's
 * {@code forceUDPEncapsulation} ({@link EspEncapsulation}); otherwise it is IP protocol 50.
 *
 * <p>Table 100 routes each remote subnet out of the WAN interface with the gateway's CNI address as
 * source, as upstream's route agent does for host networking on a libreswan gateway; the XFRM policy
 * then takes the packet before it reaches the wire.
 *
 * <p>An XFRM policy per selector pair means one remote gateway per remote cluster: with several active
 * remote gateways (seed 004, vxlan only) the connections go to the first one, and what the others
 * send finds no SA here.
 */
final class LibreswanCablePlanner {

    private LibreswanCablePlanner() {
    }

    /** @param remotes the connected clusters the Libreswan driver carries to */
    static void plan(HostContext context, List<RemoteCluster> remotes) {
        Cluster cluster = context.cluster();
        Node node = context.node();
        CablePorts ports = context.ports();
        PlanBuilder plan = context.plan();
        // The subnets this cluster's own Endpoint offers: the left side of every connection.
        List<Ipv4Prefix> local = context.localSubnets();
        int leftPort = ports.port(cluster.name(), CableDriver.LIBRESWAN);
        for (RemoteCluster remote : remotes) {
            List<Node> gateways = remote.cluster().activeGateways();
            if (gateways.isEmpty()) {
                continue;
            }
            Node peer = gateways.getFirst();
            String cable = Names.cableName(remote.cluster().name(), peer.ip());
            int rightPort = ports.port(remote.cluster().name(), CableDriver.LIBRESWAN);
            Optional<String> ike = Optional.ofNullable(remote.cable().options().get("ike"));
            Optional<String> esp = Optional.ofNullable(remote.cable().options().get("esp"));
            EspEncapsulation encapsulation = EspEncapsulation.between(node, peer, remote.cable());
            for (int l = 0; l < local.size(); l++) {
                for (int r = 0; r < remote.subnets().size(); r++) {
                    plan.ipsec(new IpsecConnection(cable + "-" + l + "-" + r, node.ip(), node.ip(), local.get(l), leftPort,
                            peer.endpointIp(), peer.ip(), remote.subnets().get(r), rightPort, Names.IPSEC_PSK, encapsulation, ike, esp));
                }
            }
            for (Ipv4Prefix subnet : remote.subnets()) {
                plan.route(new Route(Names.CABLE_TABLE, subnet, RouteType.UNICAST, List.of(Nexthop.direct(Names.WAN)),
                        OptionalInt.empty(), Optional.of(node.cniIp()), Names.CABLE_ROUTE_METRIC, RouteProtocol.STATIC));
            }
        }
    }
}
