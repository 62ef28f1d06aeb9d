package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.RpFilter;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.HostPlan.HostRole;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.Segment;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The network that exists before Submariner: every node and pod as a host, a veth per pod, the
 * cluster's underlay bridge, the WAN between gateways, and a routed CNI (like kindnet or host-gw:
 * each node routes the other nodes' pod blocks via their node address). Addresses are /32 and
 * every reachable address has an explicit route, so nothing depends on guessed subnets.
 *
 * <p>An OVN-Kubernetes cluster has no such routes and no kube-proxy: its pods are ports of their
 * node's logical switch, each node reaches OVN through its management port {@code ovn-k8s-mp0}
 * (which holds the node's CNI address), and OVN-Kubernetes DNATs an exported service's external IP
 * (its global IP) to the cluster IP in nat PREROUTING and OUTPUT; see {@link OvnPlanner} for the
 * logical network itself.
 */
final class EnvironmentPlanner {

    static final String WAN_SEGMENT = "wan";

    private EnvironmentPlanner() {
    }

    /**
     * The device upstream calls the node's default interface (the one its default route leaves by,
     * whose address a gateway publishes as its endpoint: {@code GetDefaultGatewayInterface},
     * {@code GetLocalIP}) where Submariner routes or filters by it: on a gateway node that is
     * {@value Names#WAN}, the device towards the WAN holding the endpoint address; elsewhere the
     * node's own interface. A real node has one such device; the lab splits a gateway's into the
     * cluster's underlay ({@code eth0}) and the WAN, and a Kubernetes agent programs the interface
     * it discovers in {@value Names#WAN}'s place.
     */
    static String defaultInterface(Node node) {
        return node.gateway() ? Names.WAN : node.link().device();
    }

    static String underlaySegment(String cluster) {
        return cluster + "/underlay";
    }

    static HostDrafts plan(ClusterSet set, Map<String, ClusterIndex> indexes, GlobalAddresses global, List<Segment> segments) {
        // Sized for every node and pod up front: a large set has 105,000 of them, and growing the map
        // rehashes it over and over.
        HostDrafts hosts = new HostDrafts(hostCount(set));
        // Pods' environment layers equal across clusters (overlapping CIDRs give node k of every
        // cluster the same CNI address) are one record too.
        Map<PodEnvironmentKey, io.periscope.plan.DataplanePlan> podEnvironments = new java.util.HashMap<>();
        List<Segment.Attachment> wan = new ArrayList<>();
        // kube-proxy's chains equal across clusters (the same services, endpoints and CIDRs) are one set of records too.
        KubeProxyPlanner.SharedChains kubeProxyChains = new KubeProxyPlanner.SharedChains();
        // And so are the parts of a pod's veth that only its address and node-side name decide.
        AddressMap<VethEnds> vethEnds = new AddressMap<>();
        // And each pod name's first choice of a veth name.
        Map<String, String> vethNames = new java.util.HashMap<>();
        for (Cluster cluster : set.clusters()) {
            planCluster(set, cluster, indexes.get(cluster.name()), global, hosts, segments, wan, podEnvironments, kubeProxyChains, vethEnds,
                    vethNames);
        }
        // Gateway nodes of every cluster share the WAN; each routes the others' endpoint addresses over it.
        // The hosts with a WAN interface, in the order they were planned: those the WAN attaches.
        List<WanGateway> gateways = new ArrayList<>(wan.size());
        for (Segment.Attachment attachment : wan) {
            HostDraft host = hosts.node(attachment.host());
            gateways.add(new WanGateway(host, set.requireCluster(host.id.cluster()).requireNode(host.id.name())));
        }
        // The route to a gateway's endpoint address is the same on every gateway not behind NAT: one record each.
        List<Route> toEndpoints = new ArrayList<>(gateways.size());
        for (WanGateway gateway : gateways) {
            toEndpoints.add(toEndpoint(gateway.node(), Optional.empty()));
        }
        for (WanGateway gateway : gateways) {
            wanRoutes(gateway, gateways, toEndpoints);
        }
        if (!wan.isEmpty()) {
            segments.add(new Segment(WAN_SEGMENT, Segment.SegmentKind.BRIDGE, wan));
        }
        return hosts;
    }

    /**
     * Every node and every pod with an address of its own. A method of its own, like every loop
     * over a large set's pods here: a loop of 100,000 turns in a method called once a planning has
     * the JIT compile that method on the stack, with all it calls after the loop, again and again
     * in the middle of the plans.
     */
    private static int hostCount(ClusterSet set) {
        int count = 0;
        for (Cluster cluster : set.clusters()) {
            count += cluster.nodes().size();
            for (Pod pod : cluster.pods()) {
                count += pod.hostNetwork() ? 0 : 1;
            }
        }
        return count;
    }

    /** A gateway on the WAN: its draft and its node, found once rather than for each pair of gateways. */
    private record WanGateway(HostDraft host, Node node) {
    }

    /**
     * A gateway's routes over the WAN to every other gateway's endpoint address, and its NAT device
     * when it is behind one. A method of its own, with each gateway's node at hand: a large set has
     * 100 gateways, so 10,000 pairs, and looking both nodes up again for each pair (a search of the
     * clusters and of the cluster's nodes) was most of this loop's time.
     */
    private static void wanRoutes(WanGateway gateway, List<WanGateway> gateways, List<Route> toEndpoints) {
        Node self = gateway.node();
        // Behind NAT the gateway's own sockets send from its private address, as on a real NAT'd
        // machine, and the NAT device below translates it on the WAN side.
        Optional<Ipv4Address> source = self.behindNat() ? Optional.of(self.ip()) : Optional.empty();
        for (int i = 0; i < gateways.size(); i++) {
            WanGateway other = gateways.get(i);
            if (other.host() == gateway.host()) {
                continue;
            }
            Node peer = other.node();
            if (!peer.endpointIp().equals(self.endpointIp())) {
                gateway.host().environment().route(source.isEmpty() ? toEndpoints.get(i) : toEndpoint(peer, source));
            }
        }
        if (self.behindNat()) {
            natDevice(self, gateway.host().environment());
        }
    }

    /** The route over the WAN to {@code peer}'s endpoint address, from {@code source} when the sender is behind NAT. */
    private static Route toEndpoint(Node peer, Optional<Ipv4Address> source) {
        return new Route(Route.MAIN_TABLE, Ipv4Prefix.host(peer.endpointIp()), RouteType.UNICAST, List.of(Nexthop.direct(Names.WAN)),
                OptionalInt.empty(), source, 0, RouteProtocol.BOOT);
    }

    private static void planCluster(ClusterSet set, Cluster cluster, ClusterIndex index, GlobalAddresses global, HostDrafts hosts,
                                    List<Segment> segments, List<Segment.Attachment> wan,
                                    Map<PodEnvironmentKey, io.periscope.plan.DataplanePlan> podEnvironments,
                                    KubeProxyPlanner.SharedChains kubeProxyChains, AddressMap<VethEnds> vethEnds,
                                    Map<String, String> vethNames) {
        boolean ovn = cluster.cni() == Cni.OVN_KUBERNETES;
        // kube-proxy programs the same chains on every node: build them once per cluster (a layer
        // every node of the cluster holds). OVN-Kubernetes has no kube-proxy: OVN's load balancers
        // (see OvnPlanner) serve the services.
        io.periscope.plan.DataplanePlan kubeProxy = io.periscope.plan.DataplanePlan.EMPTY;
        if (!ovn) {
            PlanBuilder kubeProxyLayer = new PlanBuilder();
            KubeProxyPlanner.plan(cluster, index, kubeProxyLayer, service -> set.globalnet().enabled()
                    && set.globalnet().mode() == io.periscope.model.topology.GlobalnetMode.V2 && index.isExported(service)
                    ? global.serviceIngress(cluster.name(), service.namespace(), service.name()) : Optional.empty(), kubeProxyChains);
            kubeProxy = kubeProxyLayer.build();
        }
        List<Rule> externalIpDnat = ovn ? OvnPlanner.externalIpDnat(set, cluster, index, global) : List.of();
        ClusterHosts planned = new ClusterHosts(cluster, hosts, segments, wan, podEnvironments, vethEnds, vethNames, kubeProxy, externalIpDnat);
        planned.nodes();
        segments.add(new Segment(underlaySegment(cluster.name()), Segment.SegmentKind.BRIDGE, planned.underlay));
        planned.pods();
    }

    /**
     * One cluster's nodes and pods as they are planned, a method for each: a large set plans 5,000
     * nodes and 100,000 pods, and with the loops' bodies in one method of a whole cluster the JIT
     * compiled that method twice (on-stack and whole) at over 100 KB of code, in the middle of the
     * plans, for more CPU time than planning the pods took.
     */
    private static final class ClusterHosts {
        private final Cluster cluster;
        private final HostDrafts hosts;
        private final List<Segment> segments;
        private final List<Segment.Attachment> wan;
        private final Map<PodEnvironmentKey, io.periscope.plan.DataplanePlan> podEnvironments;
        private final AddressMap<VethEnds> vethEnds;
        private final Map<String, String> vethNames;
        private final io.periscope.plan.DataplanePlan kubeProxy;
        private final List<Rule> externalIpDnat;
        private final boolean ovn;
        private final Map<String, List<Ipv4Prefix>> blocks;
        private final List<Node> active;
        final List<Segment.Attachment> underlay = new ArrayList<>();
        /** Every other node routes a node's address and pod blocks the same way: those routes once per device name (the file may name a node's interface). */
        private final Map<String, List<Route>> serviceRoutesBy = new LinkedHashMap<>();
        /**
         * Per device, the routes to each node of the cluster in the cluster's order, made on the
         * first node with that device: each node then takes the lists of the others by position,
         * with no lookup (or capturing lambda) per pair of nodes, of which a large set has a million.
         */
        private final Map<String, List<List<Route>>> routesToNodesBy = new java.util.HashMap<>();
        /** Each node's part in planning its pods, by node name: one lookup per pod, rather than a search of the cluster's nodes. */
        private final Map<String, PodsNode> podsNodes = new java.util.HashMap<>();
        /**
         * A pod's host id carries its namespace as an Optional: one per namespace for all its pods,
         * instead of one for each of a large set's 100,000 pods.
         */
        private final Map<String, Optional<String>> namespaces = new java.util.HashMap<>();

        ClusterHosts(Cluster cluster, HostDrafts hosts, List<Segment> segments, List<Segment.Attachment> wan,
                     Map<PodEnvironmentKey, io.periscope.plan.DataplanePlan> podEnvironments,
                     AddressMap<VethEnds> vethEnds, Map<String, String> vethNames, io.periscope.plan.DataplanePlan kubeProxy,
                     List<Rule> externalIpDnat) {
            this.cluster = cluster;
            this.hosts = hosts;
            this.segments = segments;
            this.wan = wan;
            this.podEnvironments = podEnvironments;
            this.vethEnds = vethEnds;
            this.vethNames = vethNames;
            this.kubeProxy = kubeProxy;
            this.externalIpDnat = externalIpDnat;
            this.ovn = cluster.cni() == Cni.OVN_KUBERNETES;
            this.blocks = PodBlocks.of(cluster);
            this.active = cluster.activeGateways();
            for (Node node : cluster.nodes()) {
                podsNodes.putIfAbsent(node.name(), new PodsNode(node));
            }
            for (Pod pod : cluster.pods()) {
                PodsNode on = podsNodes.get(pod.node());
                if (!pod.hostNetwork() && on != null) {
                    on.podCount++;
                }
            }
        }

        /**
         * What the pods of one node take from it: the node, its draft, the veth names used on it, the
         * Optional naming it in its pods' plans, the start of their segments' names, and (made for
         * the first pod) their environment layer and the address list of the node side of their
         * veths, all the same for every pod of the node. A large set plans 100,000 pods, and these
         * were seven lookups by the node's name for each.
         */
        private final class PodsNode {
            final Node node;
            final Optional<String> name;
            final String segmentPrefix;
            final Set<String> usedNames = new HashSet<>();
            int podCount;
            HostDraft host;
            private io.periscope.plan.DataplanePlan podEnvironment;
            private List<Ipv4Address> peerAddress;

            PodsNode(Node node) {
                this.node = node;
                this.name = Optional.of(node.name());
                this.segmentPrefix = cluster.name() + "/" + node.name() + "/";
            }

            /** Every pod of the node has the same environment layer: one record for all of them. */
            io.periscope.plan.DataplanePlan podEnvironment() {
                if (podEnvironment == null) {
                    podEnvironment = EnvironmentPlanner.podEnvironment(cluster, node.cniIp(), podEnvironments);
                }
                return podEnvironment;
            }

            /** The node side of every pod's veth has the node's CNI address: one list for all of them. */
            List<Ipv4Address> peerAddress() {
                if (peerAddress == null) {
                    peerAddress = List.of(node.cniIp());
                }
                return peerAddress;
            }
        }

        // Each lookup below finds what was made for the first node (once per cluster and device) and
        // leaves the making to a method of its own: asked 5,000 times a planning, the lookup is
        // compiled into its callers, and the making, inlined with it, made them larger for nothing.
        private List<Route> serviceRoutesOn(String device) {
            List<Route> routes = serviceRoutesBy.get(device);
            return routes != null ? routes : newServiceRoutesOn(device);
        }

        private List<Route> newServiceRoutesOn(String device) {
            List<Route> routes = cluster.serviceCidrs().stream()
                    .map(cidr -> Route.unicast(Route.MAIN_TABLE, cidr, List.of(Nexthop.direct(device)), RouteProtocol.BOOT)).toList();
            serviceRoutesBy.put(device, routes);
            return routes;
        }

        private List<List<Route>> routesToNodesOn(String device) {
            List<List<Route>> known = routesToNodesBy.get(device);
            return known != null ? known : newRoutesToNodesOn(device);
        }

        private List<List<Route>> newRoutesToNodesOn(String device) {
            List<List<Route>> toNodes = new ArrayList<>(cluster.nodes().size());
            for (Node other : cluster.nodes()) {
                List<Route> routes = new ArrayList<>();
                routes.add(Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.host(other.ip()), List.of(Nexthop.direct(device)), RouteProtocol.BOOT));
                List<Nexthop> viaOther = List.of(Nexthop.via(other.ip(), device));
                // On OVN-Kubernetes the pods sit on logical switches, reached through ovn-k8s-mp0.
                for (Ipv4Prefix block : ovn ? List.<Ipv4Prefix>of() : blocks.get(other.name())) {
                    routes.add(Route.unicast(Route.MAIN_TABLE, block, viaOther, RouteProtocol.BOOT));
                }
                toNodes.add(List.copyOf(routes));
            }
            routesToNodesBy.put(device, toNodes);
            return toNodes;
        }

        /** The cluster's nodes. (Each loop is a method of its own: see {@link #hostCount}.) */
        void nodes() {
            for (Node node : cluster.nodes()) {
                node(node);
            }
        }

        /** The cluster's pods with addresses of their own, after its nodes. */
        void pods() {
            for (Pod pod : cluster.pods()) {
                if (!pod.hostNetwork()) {
                    pod(pod);
                }
            }
        }

        void node(Node node) {
            HostRole role = active.contains(node) ? HostRole.GATEWAY : HostRole.NODE;
            HostId id = HostId.node(cluster.name(), node.name());
            // Its own interfaces (up to three) and a veth end per pod on it: the list made at that size.
            PodsNode on = podsNodes.get(node.name());
            HostDraft host = new HostDraft(id, role, Optional.empty(), 3 + (ovn ? 0 : on.podCount));
            hosts.add(host);
            on.host = host;
            String device = node.link().device();
            host.interfaces.add(new Interface(device, List.of(node.ip()), Macs.of(Macs.UNDERLAY, node.ip()),
                    underlaySegment(cluster.name()), node.link().effectiveMtu()));
            underlay.add(new Segment.Attachment(id, device));
            if (ovn) {
                ovnManagementPort(node, host);
            } else {
                // cni0 holds the node's CNI address even on a node without pods (a port-less bridge,
                // because the lab's kernel has no dummy interfaces).
                host.interfaces.add(new Interface(Names.CNI_BRIDGE, List.of(node.cniIp()), Macs.of(Macs.CNI, node.cniIp()), "",
                        Interface.DEFAULT_MTU));
            }
            // Every gateway node is on the WAN, the standbys of a single active gateway too: the
            // machine does not change when its agent wins the lease, only what Submariner programs.
            if (node.gateway()) {
                // The lab's second device stands for the same default interface towards the WAN: it has its MTU.
                host.interfaces.add(new Interface(Names.WAN, List.of(node.endpointIp()), Macs.of(Macs.WAN, node.endpointIp()),
                        WAN_SEGMENT, node.link().effectiveMtu()));
                wan.add(new Segment.Attachment(id, Names.WAN));
            }
            // The distribution's reverse-path filter, for every interface (each copies conf.default).
            String rpFilter = cluster.environment().rpFilter().sysctlValue();
            host.environment().sysctl("net.ipv4.ip_forward", "1")
                    .sysctl("net.ipv4.conf.all.rp_filter", rpFilter)
                    .sysctl("net.ipv4.conf.default.rp_filter", rpFilter);
            if (!ovn && cluster.environment().cniMasquerade() == CniMasquerade.OUTSIDE_POD_CIDRS) {
                cniMasquerade(cluster, host.environment());
            }
            nodeRoutes(node, host, device);
            host.kubeProxy = kubeProxy;
        }

        /**
         * OVN-Kubernetes: the node's CNI address is on its management port, a port of the node's
         * logical switch; the pod and service CIDRs are routed into OVN through it.
         */
        private void ovnManagementPort(Node node, HostDraft host) {
            host.interfaces.add(new Interface(Names.OVN_K8S_MP0, List.of(node.cniIp()), Macs.of(Macs.CNI, node.cniIp()),
                    OvnTopologySegments.nodeSwitch(cluster, node), Interface.DEFAULT_MTU));
            Ipv4Address routerPort = Names.ovnRouterPortIp(node.cniIp());
            host.environment().route(Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.host(routerPort), List.of(Nexthop.direct(Names.OVN_K8S_MP0)),
                    RouteProtocol.BOOT));
            for (Ipv4Prefix cidr : concat(cluster.podCidrs(), cluster.serviceCidrs())) {
                host.environment().route(Route.unicast(Route.MAIN_TABLE, cidr, List.of(Nexthop.via(routerPort, Names.OVN_K8S_MP0)),
                        RouteProtocol.BOOT));
            }
            externalIpDnat.forEach(rule -> {
                host.environment().rule(Table.NAT, "PREROUTING", rule);
                host.environment().rule(Table.NAT, "OUTPUT", rule);
            });
        }

        /** The routes to the other nodes and, on a routed CNI, to the services. */
        private void nodeRoutes(Node node, HostDraft host, String device) {
            // The routes to the other nodes, the services' and the node's pods' routes, counted
            // first: the node's route list is made once at its full size rather than grown by copying.
            int routeCount = ovn ? 0 : cluster.serviceCidrs().size() + podsNodes.get(node.name()).podCount;
            List<List<Route>> toNodes = routesToNodesOn(device);
            List<Node> nodes = cluster.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) != node) {
                    routeCount += toNodes.get(i).size();
                }
            }
            host.environment().routeCapacity(routeCount);
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) != node) {
                    host.environment().routes(toNodes.get(i));
                }
            }
            // A node (or host-network pod) connecting to a ClusterIP needs some route before
            // kube-proxy's OUTPUT DNAT rewrites the destination; real nodes have a default route.
            if (!ovn) {
                host.environment().routes(serviceRoutesOn(device));
            }
        }

        /** A pod of OVN-Kubernetes: a port of the node's logical switch; its gateway is the node's port on ovn_cluster_router. */
        private void ovnPod(Pod pod, PodsNode on) {
            Node node = on.node;
            HostId podId = new HostId(cluster.name(), namespaces.computeIfAbsent(pod.namespace(), Optional::of), pod.name());
            HostDraft podHost = new HostDraft(podId, HostRole.POD, on.name);
            hosts.add(podHost);
            podHost.interfaces.add(new Interface(Names.POD_INTERFACE, List.of(pod.ip()), Macs.of(Macs.POD, pod.ip()),
                    OvnTopologySegments.nodeSwitch(cluster, node), Interface.DEFAULT_MTU));
            podHost.environment().route(Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.DEFAULT,
                    List.of(Nexthop.onlink(Names.ovnRouterPortIp(node.cniIp()), Names.POD_INTERFACE)), RouteProtocol.BOOT));
        }

        /**
         * The parts of a pod's veth, by address alone (an int's hash, no key record per pod);
         * another name for the same address, rare, gets parts of its own.
         */
        private VethEnds vethEnds(Pod pod, String named) {
            VethEnds veth = vethEnds.get(pod.ip());
            if (veth == null || !veth.peerName().equals(named)) {
                VethEnds made = VethEnds.of(pod.ip(), named);
                if (veth == null) {
                    vethEnds.put(pod.ip(), made);
                }
                veth = made;
            }
            return veth;
        }

        void pod(Pod pod) {
            PodsNode on = podsNodes.get(pod.node());
            if (on == null) {
                throw new IllegalArgumentException("cluster " + cluster.name() + " has no node '" + pod.node() + "'");
            }
            if (ovn) {
                ovnPod(pod, on);
                return;
            }
            Node node = on.node;
            HostDraft nodeHost = on.host;
            String named = vethName(pod, on.usedNames, vethNames);
            VethEnds veth = vethEnds(pod, named);
            String peerName = veth.peerName();
            HostId podId = new HostId(cluster.name(), namespaces.computeIfAbsent(pod.namespace(), Optional::of), pod.name());
            String segment = on.segmentPrefix + pod.namespace() + "/" + pod.name();
            // The pod is complete here (no later planner adds to a pod of a routed CNI): its plan at
            // once, with no draft. A routed CNI gives the pod's veth the node's MTU (what the node's
            // network carries); the pod has no kube-proxy and no Submariner state of its own.
            hosts.add(new HostPlan(podId, HostRole.POD, on.name,
                    List.of(new Interface(Names.POD_INTERFACE, veth.podAddresses(), veth.podMac(), segment, node.link().effectiveMtu())),
                    on.podEnvironment(), io.periscope.plan.DataplanePlan.EMPTY, io.periscope.plan.DataplanePlan.EMPTY));
            // As with the ptp CNI plugin, the node side of each pod's veth also carries the node's
            // CNI address, so the pod's default route has a neighbour to resolve.
            nodeHost.interfaces.add(new Interface(peerName, on.peerAddress(), veth.peerMac(), segment, node.link().effectiveMtu()));
            nodeHost.environment().route(veth.toPod());
            segments.add(new Segment(segment, Segment.SegmentKind.VETH,
                    List.of(new Segment.Attachment(podId, Names.POD_INTERFACE), new Segment.Attachment(nodeHost.id, peerName))));
        }
    }

    /**
     * The parts of a pod's veth that depend on its address and node-side name only: the pod's
     * address list and MAC, the node side's MAC and the node's route to the pod. Clusters with
     * overlapping CIDRs and the same pods (what Globalnet is for) have the same ones, and as
     * immutable records one of each serves them all: a large set has 100,000 pods, and this is
     * nine of the objects of each that the garbage collector would otherwise copy.
     */
    record VethEnds(String peerName, List<Ipv4Address> podAddresses, MacAddress podMac, MacAddress peerMac, Route toPod) {

        static VethEnds of(Ipv4Address pod, String peerName) {
            return new VethEnds(peerName, List.of(pod), Macs.of(Macs.POD, pod), Macs.of(Macs.POD_PEER, pod),
                    Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.host(pod), List.of(Nexthop.direct(peerName)), RouteProtocol.BOOT));
        }
    }

    /**
     * All that a pod's environment layer is made of: its node's CNI address (the pod's default
     * gateway) and the cluster's reverse-path filter. Nodes and clusters with equal keys (overlapping
     * CIDRs) share one layer, found by this small key rather than by building the layer for each of
     * a large set's 5,000 nodes and hashing all twelve of its lists.
     */
    private record PodEnvironmentKey(Ipv4Address gateway, RpFilter rpFilter) {

        // Not the record's: an address hashes to itself, and the nodes' CNI addresses of a cluster
        // (one per /24, say) differ only above the bits a hash table looks at first.
        @Override
        public int hashCode() {
            return gateway.bits() * 0x9E3779B9 + rpFilter.ordinal();
        }
    }

    /**
     * The environment layer of every pod on a node whose CNI address is {@code gateway}: the default
     * route to it and the cluster's reverse-path filter; the same layer for the same address and
     * filter elsewhere, kept in {@code podEnvironments}.
     */
    private static io.periscope.plan.DataplanePlan podEnvironment(Cluster cluster, Ipv4Address gateway,
                                                                  Map<PodEnvironmentKey, io.periscope.plan.DataplanePlan> podEnvironments) {
        RpFilter rpFilter = cluster.environment().rpFilter();
        PodEnvironmentKey key = new PodEnvironmentKey(gateway, rpFilter);
        io.periscope.plan.DataplanePlan known = podEnvironments.get(key);
        if (known != null) {
            return known;
        }
        PlanBuilder environment = new PlanBuilder();
        environment.route(Route.unicast(Route.MAIN_TABLE, Ipv4Prefix.DEFAULT,
                List.of(Nexthop.onlink(gateway, Names.POD_INTERFACE)), RouteProtocol.BOOT));
        // A pod's namespace copies the node's conf.all and conf.default (IPv4's rule for new
        // namespaces); the kernel's default needs no line.
        if (rpFilter != RpFilter.OFF) {
            environment.sysctl("net.ipv4.conf.all.rp_filter", rpFilter.sysctlValue())
                    .sysctl("net.ipv4.conf.default.rp_filter", rpFilter.sysctlValue());
        }
        io.periscope.plan.DataplanePlan built = environment.build();
        podEnvironments.put(key, built);
        return built;
    }

    /**
     * A CNI that masquerades pod traffic leaving the pod network (flannel, kindnet, Calico with
     * natOutgoing): traffic to a non-local destination enters the chain, which returns for the pod
     * CIDRs and masquerades what pods send anywhere else. Each CNI names its chain its own way;
     * {@value #CNI_MASQUERADE} stands for all of them.
     */
    private static void cniMasquerade(Cluster cluster, PlanBuilder environment) {
        environment.rule(Table.NAT, "POSTROUTING", new Rule(List.of(new Match.DestinationIsLocal(true)), Target.jump(CNI_MASQUERADE),
                Optional.of("the CNI masquerades pod traffic leaving the pod network")));
        for (Ipv4Prefix pods : cluster.podCidrs()) {
            environment.rule(Table.NAT, CNI_MASQUERADE, Rule.of(new Target.Return(), new Match.Destination(pods)));
        }
        for (Ipv4Prefix pods : cluster.podCidrs()) {
            environment.rule(Table.NAT, CNI_MASQUERADE, Rule.of(new Target.Masquerade(), new Match.Source(pods)));
        }
    }

    /**
     * The 1:1 NAT device in front of a gateway with a {@code publicIP} other than its {@code ip}: it
     * translates the private address to the public one on the way out and back on the way in, and
     * conntrack un-translates the replies. Upstream's gateways sit behind such a device (a cloud's
     * elastic IP); its Libreswan driver connects from the private address and lets the device
     * translate. The lab has no machine between gateways, so the gateway's {@code wan0} stands for
     * the device's outside (it holds the public IP, which the other gateways' ARP finds there) and
     * these rules, in the gateway's namespace, do the device's work where a packet crosses to the WAN.
     */
    private static void natDevice(Node gateway, PlanBuilder environment) {
        Ipv4Address privateIp = gateway.ip();
        Ipv4Address publicIp = gateway.publicIp().orElseThrow();
        environment.rule(Table.NAT, "PREROUTING", new Rule(List.of(new Match.InInterface(Names.WAN)), Target.jump(NAT_DEVICE_IN),
                Optional.of("the NAT device in front of the gateway: its public IP to its private one")));
        environment.rule(Table.NAT, NAT_DEVICE_IN, Rule.of(new Target.Dnat(privateIp, OptionalInt.empty()),
                new Match.Destination(Ipv4Prefix.host(publicIp))));
        environment.rule(Table.NAT, "POSTROUTING", new Rule(List.of(new Match.OutInterface(Names.WAN)), Target.jump(NAT_DEVICE_OUT),
                Optional.of("the NAT device in front of the gateway: its private IP to its public one")));
        environment.rule(Table.NAT, NAT_DEVICE_OUT, Rule.of(new Target.Snat(Ipv4Range.single(publicIp)),
                new Match.Source(Ipv4Prefix.host(privateIp))));
    }

    /** The chains of the NAT device in front of a gateway behind NAT: inbound DNAT, outbound SNAT. */
    static final String NAT_DEVICE_IN = "NAT-DEVICE-IN";
    static final String NAT_DEVICE_OUT = "NAT-DEVICE-OUT";

    /** The chain of a masquerading CNI's rules. */
    static final String CNI_MASQUERADE = "CNI-MASQUERADE";

    private static List<Ipv4Prefix> concat(List<Ipv4Prefix> a, List<Ipv4Prefix> b) {
        List<Ipv4Prefix> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String vethBase(Pod pod) {
        return "p-" + (isInterfaceNameSafe(pod.name()) ? pod.name() : pod.name().replaceAll("[^A-Za-z0-9-]", ""));
    }

    /** Whether every character of {@code name} may stay in an interface name (no regular expression per pod). */
    private static boolean isInterfaceNameSafe(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /**
     * A node-side veth name: readable, unique on the node, at most 15 characters (IFNAMSIZ). Each
     * pod name's first choice is kept in {@code firstChoices}: the clusters of a large set repeat the same pod names, and making the name again for each of
     * 100,000 pods was a string and its bytes each.
     */
    static String vethName(Pod pod, Set<String> used, Map<String, String> firstChoices) {
        String first = firstChoices.get(pod.name());
        if (first == null) {
            String base = vethBase(pod);
            first = base.length() > 15 ? base.substring(0, 15) : base;
            firstChoices.put(pod.name(), first);
        }
        if (used.add(first)) {
            return first;
        }
        String base = vethBase(pod);
        String name = first;
        for (int i = 1; used.contains(name); i++) {
            String suffix = "-" + i;
            name = (base.length() + suffix.length() > 15 ? base.substring(0, 15 - suffix.length()) : base) + suffix;
        }
        used.add(name);
        return name;
    }

}
