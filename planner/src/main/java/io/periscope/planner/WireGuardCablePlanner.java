package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.Names;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The WireGuard cable driver on an active gateway: upstream's {@code submariner} device, one peer per
 * active gateway of every remote cluster it connects to with WireGuard, keepalive 10 s, and table 100
 * routing each remote subnet into the device with the gateway's CNI address as source (upstream's
 * route agent does the same in its host-network table). The device has no address of its own.
 *
 * <p>WireGuard has no multipath: the peer is chosen by allowed IPs, and one prefix belongs to one peer.
 * A remote cluster with several active gateways (seed 004, which only the vxlan cable supports) has its
 * subnets on the peer of its first active gateway; the others' peers hold only, with Globalnet, their
 * own ClusterGlobalEgressIP addresses as /32s, which win by longest prefix so replies go back to the
 * gateway that did the SNAT. Without Globalnet, packets those other gateways send are dropped by the
 * receiving device's allowed-IPs check, and the trace says so.
 *
 * <p>Every peer also has a preshared key, as upstream's driver gives each peer the key it derives
 * (SHA-256) from the cluster set's PSK: the same secret the Libreswan cable uses, named by the same id.
 */
final class WireGuardCablePlanner {

    private WireGuardCablePlanner() {
    }

    /** @param remotes the connected clusters the WireGuard driver carries to */
    static void plan(HostContext context, List<RemoteCluster> remotes) {
        if (remotes.isEmpty()) {
            return;
        }
        ClusterSet set = context.set();
        Cluster cluster = context.cluster();
        Node node = context.node();
        CablePorts ports = context.ports();
        PlanBuilder plan = context.plan();
        List<WireGuardPeer> peers = new ArrayList<>();
        for (RemoteCluster remote : remotes) {
            List<Node> gateways = context.activeGateways(remote.cluster());
            int port = ports.port(remote.cluster().name(), CableDriver.WIREGUARD);
            for (int i = 0; i < gateways.size(); i++) {
                Node gateway = gateways.get(i);
                List<Ipv4Prefix> allowed = new ArrayList<>();
                if (i == 0) {
                    allowed.addAll(remote.subnets());
                }
                if (set.globalnet().enabled() && remote.cluster().multiActiveGateways()) {
                    for (Ipv4Address egress : context.ownedEgress(remote.cluster(), gateway)) {
                        allowed.add(Ipv4Prefix.host(egress));
                    }
                }
                peers.add(new WireGuardPeer(remote.cluster().name() + "/" + gateway.name(), Names.wireGuardKey(remote.cluster().name(),
                        gateway.name()), Names.IPSEC_PSK, gateway.endpointIp(), port, allowed, Names.WIREGUARD_KEEPALIVE_SECONDS));
            }
        }
        plan.wireGuard(new WireGuardDevice(Names.WIREGUARD_DEVICE, ports.port(cluster.name(), CableDriver.WIREGUARD),
                Names.wireGuardKey(cluster.name(), node.name()), WireGuardDevice.DEFAULT_MTU, peers));
        for (RemoteCluster remote : remotes) {
            if (context.activeGateways(remote.cluster()).isEmpty()) {
                continue;
            }
            for (Ipv4Prefix subnet : remote.subnets()) {
                plan.route(new Route(Names.CABLE_TABLE, subnet, RouteType.UNICAST, List.of(Nexthop.direct(Names.WIREGUARD_DEVICE)),
                        OptionalInt.empty(), Optional.of(node.cniIp()), Names.CABLE_ROUTE_METRIC, RouteProtocol.STATIC));
            }
        }
    }
}
