package io.periscope.planner;

import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.plan.Names;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Per-gateway egress ownership on a non-gateway node: a headless pod's traffic to remote clusters
 * goes to the gateway that owns the pod's global IP, not to whichever the multipath route picks,
 * because only that gateway is where remote clusters send the replies (its Endpoint lists the
 * address). A policy rule by source sends each such pod of this node to a table of its owner's,
 * which routes the remote subnets through that gateway alone.
 *
 * <p>While the node's health checker considers the owner {@link DownGateways down}, the pod goes to
 * the owner hashing picks among the live gateways (only the dead gateway's pods move). The tables
 * keep their numbers (160 + the gateway's place among all active gateways), so a pod that does not
 * move keeps its rule and table untouched.
 */
final class EgressSteeringPlanner {

    private EgressSteeringPlanner() {
    }

    static void plan(HostContext context) {
        Cluster cluster = context.cluster();
        Node node = context.node();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        if (!cluster.egressPerGateway() || remoteSubnets.isEmpty()) {
            return;
        }
        List<Node> gateways = cluster.activeGateways();
        List<Node> live = context.down().live(cluster);
        boolean[] tableMade = new boolean[gateways.size()];
        for (Pod pod : OwnedEgress.headlessBackends(cluster)) {
            if (!pod.node().equals(node.name())) {
                continue;
            }
            Optional<String> owner = HeadlessPodOwners.ownerOf(cluster, pod, live);
            int index = owner.map(o -> indexOf(gateways, o)).orElse(-1);
            if (index < 0) {
                continue;
            }
            int table = Names.EGRESS_OWNER_TABLE_BASE + index;
            if (!tableMade[index]) {
                tableMade[index] = true;
                Ipv4Address via = Tunnels.tunnelAddress(Names.VX_SUBMARINER_FIRST_OCTET, gateways.get(index).ip());
                for (Ipv4Prefix subnet : remoteSubnets) {
                    context.plan().route(Route.unicast(table, subnet, List.of(Nexthop.via(via, Names.VX_SUBMARINER)), RouteProtocol.STATIC));
                }
            }
            context.plan().policyRule(new PolicyRule(Names.EGRESS_OWNER_RULE_PRIORITY, Optional.of(Ipv4Prefix.host(pod.ip())),
                    Optional.empty(), OptionalInt.empty(), Optional.empty(), table));
        }
    }

    private static int indexOf(List<Node> gateways, String name) {
        for (int i = 0; i < gateways.size(); i++) {
            if (gateways.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
