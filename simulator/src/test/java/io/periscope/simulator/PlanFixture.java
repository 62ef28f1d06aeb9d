package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.ServiceRecord;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Small hand-built cluster set plans, wired the way the planner wires real ones: /32 addresses,
 * explicit routes, a veth per pod (node side carrying the node's CNI address), one underlay bridge
 * per cluster, a WAN bridge for gateways. Routes are written as {@code ip route} would take them.
 */
public final class PlanFixture {

    static final String WAN = "wan";

    private final Map<HostId, HostBuilder> hosts = new LinkedHashMap<>();
    private final Map<String, Segment.SegmentKind> segmentKinds = new LinkedHashMap<>();
    private final Map<String, List<Segment.Attachment>> attachments = new LinkedHashMap<>();
    private final List<ServiceRecord> records = new ArrayList<>();
    private final Map<String, List<Service>> services = new LinkedHashMap<>();
    private final Map<String, List<ServiceExport>> exports = new LinkedHashMap<>();
    private int macSerial = 1;

    static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    static Ipv4Prefix net(String text) {
        return Ipv4Prefix.parse(text);
    }

    static Packet udp(String src, int sport, String dst, int dport) {
        return Packet.of(ip(src), ip(dst), sport, dport, Protocol.UDP);
    }

    static String underlay(String cluster) {
        return cluster + "/underlay";
    }

    /** A node with {@code eth0} on its cluster's underlay and {@code cni0} holding its CNI address. */
    HostBuilder node(String cluster, String name, String nodeIp, String cniIp) {
        HostBuilder h = host(HostId.node(cluster, name), HostPlan.HostRole.NODE);
        h.nodeIp = ip(nodeIp);
        h.cniIp = ip(cniIp);
        h.iface("eth0", nodeIp, underlay(cluster));
        h.iface("cni0", cniIp, "");
        return h;
    }

    /** A gateway: a node with {@code wan0} on the shared WAN. */
    HostBuilder gateway(String cluster, String name, String nodeIp, String cniIp, String wanIp) {
        HostBuilder h = node(cluster, name, nodeIp, cniIp);
        h.role = HostPlan.HostRole.GATEWAY;
        h.iface("wan0", wanIp, WAN);
        return h;
    }

    /** A pod on {@code node}: its veth, its default route to the node, the node's route back. */
    HostBuilder pod(HostBuilder node, String namespace, String name, String podIp) {
        HostId id = HostId.pod(node.id.cluster(), namespace, name);
        HostBuilder pod = host(id, HostPlan.HostRole.POD);
        pod.node = Optional.of(node.id.name());
        String segment = node.id + "/" + namespace + "/" + name;
        segmentKinds.put(segment, Segment.SegmentKind.VETH);
        pod.iface("eth0", podIp, segment);
        pod.routes.add(new Route(254, Ipv4Prefix.DEFAULT, RouteType.UNICAST,
                List.of(Nexthop.onlink(node.cniIp, "eth0")), OptionalInt.empty(), Optional.empty(), 0, RouteProtocol.BOOT));
        String veth = "v-" + name;
        node.iface(veth, node.cniIp.toString(), segment);
        node.route(podIp + " dev " + veth);
        return pod;
    }

    HostBuilder host(HostId id) {
        return hosts.get(id);
    }

    private HostBuilder host(HostId id, HostPlan.HostRole role) {
        HostBuilder h = new HostBuilder(id, role);
        hosts.put(id, h);
        return h;
    }

    PlanFixture serviceRecord(String cluster, String namespace, String service, Optional<String> pod, String address) {
        records.add(new ServiceRecord(cluster, namespace, service, pod, ip(address)));
        return this;
    }

    PlanFixture service(String cluster, String namespace, String name, String clusterIp, int port) {
        services.computeIfAbsent(cluster, c -> new ArrayList<>()).add(new Service(name, namespace, Optional.of(ip(clusterIp)),
                LabelSelector.ofLabels(Map.of("app", name)), List.of(new ServicePort(port, port, Protocol.TCP))));
        exports.computeIfAbsent(cluster, c -> new ArrayList<>()).add(new ServiceExport(namespace, name));
        return this;
    }

    MacAddress nextMac() {
        return MacAddress.locallyAdministered(0x77, macSerial++);
    }

    ClusterSetPlan build() {
        TreeMap<HostId, HostPlan> plans = new TreeMap<>();
        for (HostBuilder h : hosts.values()) {
            plans.put(h.id, h.build());
        }
        List<Segment> segments = new ArrayList<>();
        attachments.forEach((name, list) -> segments.add(new Segment(name,
                segmentKinds.getOrDefault(name, Segment.SegmentKind.BRIDGE), list)));
        return new ClusterSetPlan(clusterSet(), List.of(), plans, segments, records);
    }

    /** The cluster set the hosts describe, so that flows can name clusters, nodes and pods. */
    private ClusterSet clusterSet() {
        Map<String, List<Node>> nodes = new LinkedHashMap<>();
        Map<String, List<Pod>> pods = new LinkedHashMap<>();
        for (HostBuilder h : hosts.values()) {
            nodes.computeIfAbsent(h.id.cluster(), c -> new ArrayList<>());
            pods.computeIfAbsent(h.id.cluster(), c -> new ArrayList<>());
            if (h.role == HostPlan.HostRole.POD) {
                pods.get(h.id.cluster()).add(new Pod(h.id.name(), h.id.namespace().orElseThrow(), h.node.orElseThrow(),
                        h.interfaces.getFirst().addresses().getFirst(), Map.of("app", h.id.name()), false));
            } else {
                nodes.get(h.id.cluster()).add(new Node(h.id.name(), h.nodeIp, h.cniIp,
                        h.role == HostPlan.HostRole.GATEWAY, Optional.empty()));
            }
        }
        List<Cluster> clusters = new ArrayList<>();
        nodes.forEach((name, list) -> clusters.add(new Cluster(name, Map.of(), List.of(), List.of(), Optional.empty(),
                Cni.KUBE_PROXY, false, Cluster.DEFAULT_CLUSTER_EGRESS_IPS, GatewayLoadBalancing.MULTIPATH_ROUTES, list,
                pods.get(name), services.getOrDefault(name, List.of()), exports.getOrDefault(name, List.of()), List.of())));
        return new ClusterSet("fixture", GlobalnetConfig.DISABLED, CableDriver.VXLAN, clusters, List.of(), List.of(), List.of());
    }

    final class HostBuilder {
        final HostId id;
        HostPlan.HostRole role;
        Optional<String> node = Optional.empty();
        Ipv4Address nodeIp;
        Ipv4Address cniIp;
        final List<Interface> interfaces = new ArrayList<>();
        final List<Route> routes = new ArrayList<>();
        final List<PolicyRule> rules = new ArrayList<>();
        final Map<Table, Map<String, List<Rule>>> tables = new EnumMap<>(Table.class);
        final List<VxlanDevice> vxlans = new ArrayList<>();
        final List<FdbEntry> fdb = new ArrayList<>();
        final List<Neighbour> neighbours = new ArrayList<>();
        final List<NexthopObject> nexthops = new ArrayList<>();
        final List<NexthopGroup> groups = new ArrayList<>();
        final List<IpSet> ipsets = new ArrayList<>();
        final Map<String, String> sysctls = new TreeMap<>();
        final List<WireGuardDevice> wireGuards = new ArrayList<>();
        final List<IpsecConnection> ipsecs = new ArrayList<>();

        private HostBuilder(HostId id, HostPlan.HostRole role) {
            this.id = id;
            this.role = role;
        }

        /** An interface with one address, attached to {@code segment} ("" for none). */
        HostBuilder iface(String name, String address, String segment) {
            interfaces.add(new Interface(name, List.of(ip(address)), nextMac(), segment, Interface.DEFAULT_MTU));
            if (!segment.isEmpty()) {
                attachments.computeIfAbsent(segment, s -> new ArrayList<>()).add(new Segment.Attachment(id, name));
            }
            return this;
        }

        /** Gives interface {@code name} another MTU ({@code ip link set NAME mtu MTU}). */
        HostBuilder mtu(String name, int mtu) {
            for (int i = 0; i < interfaces.size(); i++) {
                Interface iface = interfaces.get(i);
                if (iface.name().equals(name)) {
                    interfaces.set(i, new Interface(iface.name(), iface.addresses(), iface.mac(), iface.segment(), mtu));
                    return this;
                }
            }
            throw new IllegalArgumentException(id + " has no interface " + name);
        }

        /**
         * A route in {@code ip route} syntax: {@code [table N] [blackhole|unreachable] DEST [via GW] [dev D]
         * [onlink] [nhid N] [src S] [metric M] [nexthop via GW dev D [weight W]]...}.
         */
        HostBuilder route(String text) {
            routes.add(parseRoute(text));
            return this;
        }

        /** A route as a record, for what the text form has no words for (a reason). */
        HostBuilder route(Route route) {
            routes.add(route);
            return this;
        }

        HostBuilder wireGuard(WireGuardDevice device) {
            wireGuards.add(device);
            return this;
        }

        HostBuilder ipsec(IpsecConnection connection) {
            ipsecs.add(connection);
            return this;
        }

        HostBuilder rule(PolicyRule rule) {
            rules.add(rule);
            return this;
        }

        /** Appends {@code rule} to {@code chain} of {@code table} (declaring the chain). */
        HostBuilder append(Table table, String chain, Rule rule) {
            chain(table, chain).add(rule);
            return this;
        }

        HostBuilder chain(Table table, String chain, Rule... rules) {
            chain(table, chain).addAll(Arrays.asList(rules));
            return this;
        }

        private List<Rule> chain(Table table, String chain) {
            return tables.computeIfAbsent(table, t -> new LinkedHashMap<>()).computeIfAbsent(chain, c -> new ArrayList<>());
        }

        /** A VXLAN device; the kernel picks its MAC, as for upstream's devices. */
        HostBuilder vxlan(String name, int vni, int port, String local, String underlayDevice, String address, String network) {
            vxlans.add(new VxlanDevice(name, vni, port, Optional.of(ip(local)), Optional.of(underlayDevice), 1450, ip(address), net(network), false));
            return this;
        }

        /** The VXLAN device {@code name} learns where peers' MACs are (seed 004's vxlan-tunnel towards several gateways). */
        HostBuilder learning(String name) {
            vxlans.replaceAll(d -> d.name().equals(name) ? d.withLearning(true) : d);
            return this;
        }

        HostBuilder fdb(String device, MacAddress mac, String destination) {
            fdb.add(new FdbEntry(device, mac, ip(destination)));
            return this;
        }

        HostBuilder neighbour(String device, String address, MacAddress mac) {
            neighbours.add(new Neighbour(device, ip(address), mac));
            return this;
        }

        HostBuilder nexthopObject(int nhid, String via, String device) {
            nexthops.add(new NexthopObject(nhid, ip(via), device, false));
            return this;
        }

        HostBuilder nexthopGroup(int nhid, NexthopGroup.Member... members) {
            groups.add(new NexthopGroup(nhid, List.of(members), false, 0));
            return this;
        }

        HostBuilder ipset(String name, String... members) {
            ipsets.add(new IpSet(name, IpSetType.HASH_NET, Arrays.stream(members).map(Ipv4Prefix::parse).toList()));
            return this;
        }

        HostBuilder sysctl(String key, String value) {
            sysctls.put(key, value);
            return this;
        }

        HostPlan build() {
            List<NetfilterTable> netfilter = new ArrayList<>();
            tables.forEach((table, chains) -> netfilter.add(new NetfilterTable(table,
                    chains.entrySet().stream().map(e -> new Chain(e.getKey(), e.getValue())).toList())));
            DataplanePlan plan = new DataplanePlan(netfilter, ipsets, vxlans, fdb, neighbours, nexthops, groups, routes, rules, sysctls,
                    wireGuards, ipsecs);
            return new HostPlan(id, role, node, interfaces, plan, DataplanePlan.EMPTY);
        }
    }

    public static Route parseRoute(String text) {
        String[] t = text.trim().split("\\s+");
        int i = 0;
        int table = Route.MAIN_TABLE;
        RouteType type = RouteType.UNICAST;
        if (t[i].equals("table")) {
            table = Integer.parseInt(t[i + 1]);
            i += 2;
        }
        if (t[i].equals("blackhole") || t[i].equals("unreachable")) {
            type = t[i].equals("blackhole") ? RouteType.BLACKHOLE : RouteType.UNREACHABLE;
            i++;
        }
        Ipv4Prefix destination = t[i].equals("default") ? Ipv4Prefix.DEFAULT : net(t[i]);
        i++;
        Optional<Ipv4Address> via = Optional.empty();
        String device = null;
        boolean onlink = false;
        OptionalInt nhid = OptionalInt.empty();
        Optional<Ipv4Address> source = Optional.empty();
        int metric = 0;
        List<Nexthop> multipath = new ArrayList<>();
        while (i < t.length) {
            switch (t[i]) {
                case "via" -> via = Optional.of(ip(t[++i]));
                case "dev" -> device = t[++i];
                case "onlink" -> onlink = true;
                case "nhid" -> nhid = OptionalInt.of(Integer.parseInt(t[++i]));
                case "src" -> source = Optional.of(ip(t[++i]));
                case "metric" -> metric = Integer.parseInt(t[++i]);
                case "nexthop" -> {
                    Optional<Ipv4Address> nhVia = Optional.empty();
                    String nhDevice = null;
                    int weight = 1;
                    while (i + 1 < t.length && !t[i + 1].equals("nexthop")) {
                        i++;
                        switch (t[i]) {
                            case "via" -> nhVia = Optional.of(ip(t[++i]));
                            case "dev" -> nhDevice = t[++i];
                            case "weight" -> weight = Integer.parseInt(t[++i]);
                            default -> throw new IllegalArgumentException("unknown nexthop word " + t[i] + " in " + text);
                        }
                    }
                    multipath.add(new Nexthop(nhVia, nhDevice, weight, false));
                }
                default -> throw new IllegalArgumentException("unknown route word " + t[i] + " in " + text);
            }
            i++;
        }
        List<Nexthop> nexthops = !multipath.isEmpty() ? multipath
                : device == null ? List.of() : List.of(new Nexthop(via, device, 1, onlink));
        return new Route(table, destination, type, nexthops, nhid, source, metric, RouteProtocol.STATIC);
    }
}
