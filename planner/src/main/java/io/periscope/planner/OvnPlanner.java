package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.HostId;
import io.periscope.plan.Names;
import io.periscope.plan.Segment;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.ovn.LoadBalancer;
import io.periscope.plan.ovn.LoadBalancerGroup;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The OVN logical network of an OVN-Kubernetes cluster: what OVN-Kubernetes builds (a logical
 * switch per node with its pods and management port, {@code ovn_cluster_router} joining them, the
 * {@code clusterLBGroup} of every ClusterIP service), then what Submariner adds, which depends on
 * the cluster set's {@code behaviour} ({@link OvnArchitecture}): seed 003's {@code submariner_router}
 * or upstream's reroute to the gateway's management port. A node's router port takes the address
 * after its CNI address.
 */
final class OvnPlanner {

    private OvnPlanner() {
    }

    /** The cluster's logical network; the segments that carry its logical switches are added to {@code segments}. */
    static OvnTopology plan(ClusterContext context, List<Segment> segments) {
        Cluster cluster = context.cluster();
        ClusterIndex index = context.index();
        Map<String, List<Ipv4Prefix>> blocks = PodBlocks.of(cluster);
        HostId clusterRouter = HostId.node(cluster.name(), Names.OVN_CLUSTER_ROUTER);
        List<LoadBalancerGroup> groups = List.of(new LoadBalancerGroup(Names.CLUSTER_LB_GROUP, loadBalancers(cluster, index)));

        // OVN-Kubernetes: one switch per node, joined by ovn_cluster_router.
        List<RouterPort> clusterPorts = new ArrayList<>();
        List<StaticRoute> clusterRoutes = new ArrayList<>();
        List<LogicalSwitch> switches = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            String port = Names.routerToSwitchPort(node.name());
            Ipv4Address address = Names.ovnRouterPortIp(node.cniIp());
            List<Ipv4Prefix> nodeBlocks = blocks.get(node.name());
            Ipv4Prefix network = nodeBlocks.stream().filter(b -> b.contains(address)).findFirst().orElse(Ipv4Prefix.host(address));
            clusterPorts.add(new RouterPort(port, Macs.of(Macs.OVN_ROUTER_PORT, address), address, network, node.name()));
            // Addresses of the node outside its block (a pod placed elsewhere) need a route of their own.
            for (Ipv4Prefix block : nodeBlocks) {
                if (!network.contains(block)) {
                    clusterRoutes.add(new StaticRoute(block, block.first(), Optional.of(port), StaticRoute.Policy.DST_IP));
                }
            }
            List<LogicalSwitch.SwitchPort> ports = new ArrayList<>();
            List<Segment.Attachment> attachments = new ArrayList<>();
            ports.add(new LogicalSwitch.SwitchPort(Names.switchToRouterPort(node.name()), LogicalSwitch.Kind.ROUTER,
                    Names.OVN_CLUSTER_ROUTER + "/" + port));
            attachments.add(new Segment.Attachment(clusterRouter, port));
            HostId nodeId = HostId.node(cluster.name(), node.name());
            ports.add(new LogicalSwitch.SwitchPort(Names.managementSwitchPort(node.name()), LogicalSwitch.Kind.MANAGEMENT,
                    nodeId + " " + Names.OVN_K8S_MP0, Optional.of(Macs.of(Macs.CNI, node.cniIp())), Optional.of(node.cniIp())));
            attachments.add(new Segment.Attachment(nodeId, Names.OVN_K8S_MP0));
            for (Pod pod : cluster.pods()) {
                if (pod.node().equals(node.name()) && !pod.hostNetwork()) {
                    HostId podId = HostId.pod(cluster.name(), pod.namespace(), pod.name());
                    ports.add(new LogicalSwitch.SwitchPort(pod.namespace() + "_" + pod.name(), LogicalSwitch.Kind.POD,
                            podId + " " + Names.POD_INTERFACE, Optional.of(Macs.of(Macs.POD, pod.ip())), Optional.of(pod.ip())));
                    attachments.add(new Segment.Attachment(podId, Names.POD_INTERFACE));
                }
            }
            switches.add(new LogicalSwitch(node.name(), ports, List.of(Names.CLUSTER_LB_GROUP)));
            segments.add(new Segment(OvnTopologySegments.nodeSwitch(cluster, node), Segment.SegmentKind.BRIDGE, attachments));
        }

        // OVN-Kubernetes sends what leaves a node's pods (and its management port) to the node's gateway
        // router over the join switch: a source route per node. Without a route, OVN drops a packet
        // before its policies run, so Submariner's reroute policies rely on these routes.
        clusterPorts.add(new RouterPort(Names.OVN_JOIN_ROUTER_PORT, Macs.of(Macs.OVN_ROUTER_PORT, Names.OVN_JOIN_ROUTER_IP),
                Names.OVN_JOIN_ROUTER_IP, Ipv4Prefix.containing(Names.OVN_JOIN_ROUTER_IP, Names.OVN_JOIN_PREFIX_LENGTH), Names.OVN_JOIN));
        for (int i = 0; i < cluster.nodes().size(); i++) {
            for (Ipv4Prefix block : blocks.get(cluster.nodes().get(i).name())) {
                clusterRoutes.add(new StaticRoute(block, Names.gatewayRouterJoinIp(i), Optional.empty(), StaticRoute.Policy.SRC_IP));
            }
        }
        switches.add(new LogicalSwitch(Names.OVN_JOIN, List.of(new LogicalSwitch.SwitchPort(Names.OVN_JOIN_SWITCH_PORT, LogicalSwitch.Kind.ROUTER,
                Names.OVN_CLUSTER_ROUTER + "/" + Names.OVN_JOIN_ROUTER_PORT)), List.of()));
        segments.add(new Segment(OvnTopology.segmentName(cluster.name(), Names.OVN_JOIN), Segment.SegmentKind.BRIDGE,
                List.of(new Segment.Attachment(clusterRouter, Names.OVN_JOIN_ROUTER_PORT))));

        // Submariner's rows, by the architecture the cluster set's behaviour chooses.
        OvnArchitecture.SubmarinerRows submariner = OvnArchitecture.of(context.set()).logicalRows(context, segments);
        clusterPorts.addAll(submariner.clusterRouterPorts());
        clusterRoutes.addAll(submariner.clusterRouterRoutes());
        LogicalRouter ovnClusterRouter = new LogicalRouter(Names.OVN_CLUSTER_ROUTER, clusterPorts, submariner.clusterRouterPolicies(),
                clusterRoutes, Optional.empty(), List.of());
        List<LogicalRouter> routers = new ArrayList<>(List.of(ovnClusterRouter));
        routers.addAll(submariner.routers());
        switches.addAll(submariner.switches());
        return new OvnTopology(cluster.name(), routers, switches, groups, submariner.bridges());
    }

    /** What traffic from remote clusters is addressed to once the gateway has translated it: the pod and service CIDRs. */
    static List<Ipv4Prefix> localCidrs(Cluster cluster) {
        List<Ipv4Prefix> local = new ArrayList<>(cluster.podCidrs());
        local.addAll(cluster.serviceCidrs());
        return local;
    }

    /** clusterLBGroup: one VIP per ClusterIP service port, to the service's endpoints. */
    private static List<LoadBalancer> loadBalancers(Cluster cluster, ClusterIndex index) {
        List<LoadBalancer> lbs = new ArrayList<>();
        for (Service service : cluster.services()) {
            if (service.headless() || service.clusterIp().isEmpty()) {
                continue;
            }
            List<Pod> endpoints = index.endpointsOf(service);
            for (ServicePort port : service.ports()) {
                List<LoadBalancer.Backend> backends = endpoints.stream().map(p -> new LoadBalancer.Backend(p.ip(), port.targetPort())).toList();
                lbs.add(new LoadBalancer("Service_" + service.namespace() + "/" + service.name() + "_" + port.protocol().name() + "_cluster",
                        service.clusterIp().get(), port.port(), port.protocol(), backends));
            }
        }
        return lbs;
    }

    /**
     * OVN-Kubernetes' own iptables rule for a service's external IP (seed 003: "the OVN controller
     * programs IPTable rule in PREROUTING chain of nat table to perform DNAT operation from
     * external-ip to the corresponding cluster-ip"): Globalnet gives an exported service's global IP
     * as external IP to the internal service it creates, so that address is DNATed to the cluster IP,
     * which OVN's load balancers then send to an endpoint.
     */
    static List<Rule> externalIpDnat(ClusterSet set, Cluster cluster, ClusterIndex index, GlobalAddresses global) {
        if (!set.globalnet().enabled() || set.globalnet().mode() != GlobalnetMode.V2) {
            return List.of();
        }
        List<Rule> rules = new ArrayList<>();
        for (Service service : cluster.services()) {
            if (service.headless() || service.clusterIp().isEmpty() || !index.isExported(service)) {
                continue;
            }
            Optional<Ipv4Address> external = global.serviceIngress(cluster.name(), service.namespace(), service.name());
            if (external.isEmpty()) {
                continue;
            }
            for (ServicePort port : service.ports()) {
                rules.add(new Rule(List.of(new Match.Destination(Ipv4Prefix.host(external.get())), new Match.ProtocolIs(port.protocol()),
                        new Match.DestinationPort(port.port())),
                        new Target.Dnat(service.clusterIp().get(), OptionalInt.of(port.port())), Optional.empty()));
            }
        }
        return rules;
    }
}
