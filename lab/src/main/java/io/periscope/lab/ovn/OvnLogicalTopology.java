package io.periscope.lab.ovn;

import io.periscope.model.net.Ipv4Address;

import java.util.ArrayList;
import java.util.List;

/**
 * The logical network OVN-Kubernetes writes into the northbound database for a cluster, as far as
 * pod and node traffic needs it, as {@code ovn-nbctl} commands:
 * <ul>
 *   <li>per node a logical switch named after the node, with the node's pod subnet
 *       ({@code other_config:subnet}), its management port {@code k8s-NODE} and its router port
 *       {@code stor-NODE};</li>
 *   <li>{@code ovn_cluster_router}, with {@code rtos-NODE} (the subnet's first address, the pods'
 *       gateway) on every node switch, which routes between the nodes' subnets;</li>
 *   <li>the {@code join} switch between {@code ovn_cluster_router} ({@code rtoj-ovn_cluster_router})
 *       and one gateway router per node, {@code GR_NODE}, bound to its node's chassis
 *       ({@code options:chassis}) and routing the cluster CIDR back to {@code ovn_cluster_router}.</li>
 * </ul>
 * Pods are added later, one logical switch port each ({@link #pod}). The gateway routers have no
 * external switch yet: nothing in the lab leaves a cluster through them so far.
 */
final class OvnLogicalTopology {

    static final String CLUSTER_ROUTER = "ovn_cluster_router";
    static final String JOIN_SWITCH = "join";

    private OvnLogicalTopology() {
    }

    /** The commands, to run as one transaction, that write the cluster's topology into an empty northbound database. */
    static List<List<String>> cluster(OvnClusterSpec cluster) {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("lr-add", CLUSTER_ROUTER));
        commands.add(List.of("ls-add", JOIN_SWITCH));
        Ipv4Address routerJoin = cluster.clusterRouterJoinAddress();
        routerPort(commands, CLUSTER_ROUTER, "rtoj-" + CLUSTER_ROUTER, routerJoin, cluster.joinSubnet().length(), JOIN_SWITCH,
                "jtor-" + CLUSTER_ROUTER);
        for (int i = 0; i < cluster.nodes().size(); i++) {
            OvnNodeSpec node = cluster.nodes().get(i);
            commands.add(List.of("ls-add", node.name()));
            commands.add(List.of("set", "logical_switch", node.name(), "other_config:subnet=" + node.podSubnet()));
            routerPort(commands, CLUSTER_ROUTER, "rtos-" + node.name(), node.gateway(), node.podSubnet().length(), node.name(),
                    "stor-" + node.name());
            commands.add(List.of("lsp-add", node.name(), "k8s-" + node.name()));
            commands.add(List.of("lsp-set-addresses", "k8s-" + node.name(), node.managementMac() + " " + node.managementAddress()));
        }
        commands.addAll(gatewayRouters(cluster));
        return commands;
    }

    /**
     * One gateway router {@code GR_NODE} per node on the join switch, bound to the node's chassis and
     * routing the cluster CIDR back to {@code ovn_cluster_router}: the rows OVN-Kubernetes adds besides
     * what the plan holds. The plan's source routes on {@code ovn_cluster_router} point at their join
     * addresses, which OVN resolves only if something there answers.
     */
    static List<List<String>> gatewayRouters(OvnClusterSpec cluster) {
        List<List<String>> commands = new ArrayList<>();
        for (int i = 0; i < cluster.nodes().size(); i++) {
            OvnNodeSpec node = cluster.nodes().get(i);
            String gatewayRouter = "GR_" + node.name();
            commands.add(List.of("lr-add", gatewayRouter));
            commands.add(List.of("set", "logical_router", gatewayRouter, "options:chassis=" + node.name()));
            routerPort(commands, gatewayRouter, "rtoj-" + gatewayRouter, cluster.gatewayRouterJoinAddress(i), cluster.joinSubnet().length(),
                    JOIN_SWITCH, "jtor-" + gatewayRouter);
            commands.add(List.of("lr-route-add", gatewayRouter, cluster.clusterCidr().toString(), cluster.clusterRouterJoinAddress().toString()));
        }
        return commands;
    }

    /** A logical switch port of {@code logicalSwitch} for an endpoint with {@code address} and OVN-Kubernetes' MAC for it. */
    static List<List<String>> switchPort(String logicalSwitch, String port, Ipv4Address address) {
        return List.of(List.of("lsp-add", logicalSwitch, port),
                List.of("lsp-set-addresses", port, OvnClusterSpec.macOf(address) + " " + address));
    }

    /** The pod's logical switch port on its node's switch. */
    static List<List<String>> pod(OvnNodeSpec node, String port, Ipv4Address address) {
        return switchPort(node.name(), port, address);
    }

    /** A router port, and the switch port of type router that plugs it into {@code logicalSwitch}. */
    private static void routerPort(List<List<String>> commands, String router, String routerPort, Ipv4Address address, int length,
                                   String logicalSwitch, String switchPort) {
        commands.add(List.of("lrp-add", router, routerPort, OvnClusterSpec.macOf(address), address + "/" + length));
        commands.add(List.of("lsp-add", logicalSwitch, switchPort));
        commands.add(List.of("lsp-set-type", switchPort, "router"));
        commands.add(List.of("lsp-set-addresses", switchPort, "router"));
        commands.add(List.of("lsp-set-options", switchPort, "router-port=" + routerPort));
    }
}
